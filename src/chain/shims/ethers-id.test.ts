import { id as ethersId } from 'ethers'
import fc from 'fast-check'
import { id } from './ethers-id'

describe("the remembering stand-in for ethers' id", () => {
  it('answers what ethers answers, the first time and again', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { maxLength: 30 }), (texts) => {
        for (const text of [...texts, ...texts]) expect(id(text)).toBe(ethersId(text))
      }),
    )
    expect(id('transfer(address,uint256)').slice(0, 10)).toBe('0xa9059cbb')
  })

  it('stays right past its memory bound', () => {
    for (let i = 0; i < 2_500; i++) expect(id(`f${i}()`)).toBe(ethersId(`f${i}()`))
    expect(id('f0()')).toBe(ethersId('f0()'))
  })
})
