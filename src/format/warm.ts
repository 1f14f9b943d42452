import { formatAmount } from './units'
import { formatDate } from './dates'

/**
 * Makes the page's first Intl formatters before any figure needs them. The first one loads the browser's ICU locale
 * data: about 16 ms here, 60 or more on a phone, paid inside whichever render first formats an amount or a date,
 * usually the one that shows the first answer from the chain, which is long already. Called in a task of its own while
 * the app starts (src/index.tsx), one formatter a call: `steps` says how many calls there are.
 */
export const warmSteps = [() => formatAmount('0'), () => formatDate(0)]
