import { ZeroAddress } from 'ethers'
import { yupToFormErrors, type FormikErrors } from 'formik'
import * as yup from 'yup'
import { readAmountInput, type DecimalSeparator } from '../../format/amountInput'
import { TOKEN_DECIMALS } from '../../format/units'
import { DEFAULT_DAYS, daysInRange, daysRangeText } from './days'

/** The referral option 'Product team': the zero address, which the pool takes as no referer. */
export const PRODUCT_TEAM_REFERRAL = ZeroAddress

export interface DepositValues {
  amount: string
  days: string
  referral: string
}

export const EMPTY_DEPOSIT: DepositValues = { amount: '', days: DEFAULT_DAYS, referral: '' }

/**
 * What is wrong with the amount's text itself (letters, an exponent, a sign, a comma, ...), or null. The modal shows it
 * at once, even for a paste into an untouched field: typing on cannot fix it, unlike an amount still being typed.
 */
export function amountTextProblem(text: string, separator: DecimalSeparator = '.'): string | null {
  const reading = readAmountInput(text, TOKEN_DECIMALS, separator)
  return reading.ok || reading.problem === 'required' ? null : reading.message
}

/** A referral counts when one is chosen and it is not the product team's zero address. */
export const hasReferral = (referral: string) => referral !== '' && referral !== PRODUCT_TEAM_REFERRAL

/** The rules and messages of docs/product.md §4.1 and §4.2 for the current balance and day limits. */
function depositSchema(balanceWei: string, limits: { min: number; max: number }, separator: DecimalSeparator) {
  const range = daysRangeText(limits)
  return yup.object({
    // One test, so a text gets one message, in this order: what is wrong with the text (format/units.ts), then the
    // spec's value rules. The text itself is never corrected: what was typed or pasted stays in the field.
    amount: yup
      .string()
      .required('Amount is required')
      .test('amount', (v, ctx) => {
        const reading = readAmountInput(v ?? '', TOKEN_DECIMALS, separator)
        if (!reading.ok) return ctx.createError({ message: reading.message })
        if (BigInt(reading.baseUnits) === 0n) return ctx.createError({ message: 'Amount must be greater than 0' })
        if (BigInt(reading.baseUnits) > BigInt(balanceWei))
          return ctx.createError({ message: 'The amount should not exceed your balance' })
        return true
      }),
    days: yup
      .string()
      .required(range)
      .test('range', range, (v) => daysInRange(v ?? '', limits)),
    referral: yup.string(),
  })
}

/** The schema's messages for `values` by field, as formik keeps them; none when they pass. */
export function depositErrors(
  values: DepositValues,
  balanceWei: string,
  limits: { min: number; max: number },
  separator: DecimalSeparator = '.',
): FormikErrors<DepositValues> {
  try {
    depositSchema(balanceWei, limits, separator).validateSync(values, { abortEarly: false })
    return {}
  } catch (err) {
    return yupToFormErrors<DepositValues>(err)
  }
}
