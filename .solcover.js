// Coverage measures the product's contracts; contracts/test/ holds attackers and benchmark helpers.
module.exports = { skipFiles: ['test/'] }
