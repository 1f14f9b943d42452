import * as yup from 'yup'
import { parseAmountInput } from '../../format/units'

export const PRODUCT_TEAM_REFERRAL = '0x0000000000000000000000000000000000000000'

export interface DepositValues {
  amount: string
  days: string
  referral: string
}

export const EMPTY_DEPOSIT: DepositValues = { amount: '', days: '365', referral: '' }

/** What may be typed: digits with one dot and at most 18 decimals (anything else is refused, not corrected). */
const AMOUNT_TYPING = /^\d*\.?\d{0,18}$/
const DAYS_TYPING = /^\d{0,4}$/

/** The amount field's next text for what was typed or pasted, or null to refuse it (spaces are dropped). */
export function acceptAmountText(typed: string): string | null {
  const t = typed.replace(/\s+/g, '')
  return AMOUNT_TYPING.test(t) ? t : null
}

export function acceptDaysText(typed: string): string | null {
  const t = typed.replace(/\s+/g, '')
  return DAYS_TYPING.test(t) ? t : null
}

/** A referral counts when one is chosen and it is not the product team's zero address. */
export const hasReferral = (referral: string) => referral !== '' && referral !== PRODUCT_TEAM_REFERRAL

/** The spec's rules and messages (SPEC section 5) for the current balance and day limits. */
export function depositSchema(balanceWei: string, limits: { min: number; max: number }) {
  const range = `From ${limits.min} to ${limits.max}`
  return yup.object({
    amount: yup
      .string()
      .required('Amount is required')
      .test('positive', 'Amount must be greater than 0', (v) => {
        const wei = parseAmountInput(v ?? '')
        return wei !== null && BigInt(wei) > 0n
      })
      .test('balance', 'The amount should not exceed your balance', (v) => {
        const wei = parseAmountInput(v ?? '')
        return wei === null || BigInt(wei) <= BigInt(balanceWei)
      }),
    days: yup
      .string()
      .required(range)
      .test('range', range, (v) => /^\d+$/.test(v ?? '') && Number(v) >= limits.min && Number(v) <= limits.max),
    referral: yup.string(),
  })
}
