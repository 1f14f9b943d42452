import { formatUnits } from 'ethers'
import fc from 'fast-check'
import { formatAmount, formatCompact, formatCount, formatPercent, shortenAddress, NO_FIGURE } from './units'

describe('formatAmount', () => {
  it('writes what Intl en-US writes, rounded towards zero, for any amount and digits', () => {
    // The reference: the app groups the digits itself (no Intl at load, units.ts) and must write what Intl would.
    const intl = (digits: number) =>
      new Intl.NumberFormat('en-US', {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
        roundingMode: 'trunc',
      } as Intl.NumberFormatOptions)
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(2n ** 256n), max: 2n ** 256n }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 8 }),
        (amount, decimals, digits) => {
          const text = formatUnits(amount, decimals)
          expect(formatAmount(amount, { decimals, fractionDigits: digits })).toBe(intl(digits).format(text as unknown as number))
        },
      ),
      { numRuns: 2000 },
    )
  })
  it("writes every digit as ethers' formatUnits does, for any amount and decimals", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 256n), max: 2n ** 256n }), fc.integer({ min: 0, max: 40 }), (amount, decimals) => {
        expect(formatAmount(amount, { decimals, exact: true })).toBe(formatUnits(amount, decimals))
      }),
      { numRuns: 2000 },
    )
  })
  it('counts with thousands separators, as Intl en-US does', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }), (n) => {
        expect(formatCount(n)).toBe(n.toLocaleString('en-US'))
      }),
    )
  })
  it('shows 2 decimals with thousands separators', () => {
    expect(formatAmount('1234567000000000000000000')).toBe('1,234,567.00')
    expect(formatAmount(0n)).toBe('0.00')
  })
  it('rounds down, never up, at full 18-decimal precision', () => {
    expect(formatAmount('1999999999999999999')).toBe('1.99')
    expect(formatAmount('9999999999999999')).toBe('0.00')
    expect(formatAmount('123456789012345678901234567890123456789')).toBe('123,456,789,012,345,678,901.23')
  })
  it('honours other decimals and digits', () => {
    expect(formatAmount('123456', { decimals: 6, fractionDigits: 4 })).toBe('0.1234')
    expect(formatAmount('1500000000000000000', { fractionDigits: 0 })).toBe('1')
    expect(formatAmount(5_000n, { decimals: 2 })).toBe('50.00')
    expect(formatPercent(12_345_000_000_000_000_000n)).toBe('12.34')
  })
  it('rounds a negative amount towards zero, as it shows the positive one', () => {
    expect(formatAmount(-280n * 10n ** 18n)).toBe('-280.00')
    expect(formatAmount('-1999999999999999999')).toBe('-1.99')
    expect(formatAmount(-1n)).toBe('-0.00')
  })
  it('puts the symbol after the figure, and nothing for an empty symbol', () => {
    expect(formatAmount(10n * 10n ** 18n, { symbol: 'PLT' })).toBe('10.00 PLT')
    expect(formatAmount(10n ** 28n, { symbol: 'PLT' })).toBe('10,000,000,000.00 PLT')
    expect(formatAmount(-1n, { symbol: 'PLT' })).toBe('-0.00 PLT')
    expect(formatAmount(10n * 10n ** 18n, { symbol: '' })).toBe('10.00')
  })
  it('shows the placeholder, without the symbol, for an unknown amount: a dash unless told', () => {
    expect(NO_FIGURE).toBe('—')
    expect(formatAmount(null)).toBe('—')
    expect(formatAmount(undefined, { symbol: 'PLT' })).toBe('—')
    expect(formatAmount(null, { symbol: 'PLT', placeholder: 'n/a' })).toBe('n/a')
    // Zero is a figure, not an unknown one.
    expect(formatAmount('0', { symbol: 'PLT', placeholder: 'n/a' })).toBe('0.00 PLT')
  })
  it('writes every digit and no separators with exact, as formatUnits does (the CSV export)', () => {
    for (const wei of ['1000000000000000000001', '1100000000000000000000', '-280000000000000000000', '0', '345']) {
      expect(formatAmount(wei, { exact: true })).toBe(formatUnits(wei, 18))
    }
    expect(formatAmount('1000000000000000000001', { exact: true })).toBe('1000.000000000000000001')
    expect(formatAmount(30n * 10n ** 18n, { exact: true })).toBe('30.0')
    expect(formatAmount('123456', { decimals: 6, exact: true, fractionDigits: 2 })).toBe('0.123456')
    expect(formatAmount(null, { exact: true, placeholder: '' })).toBe('')
  })
})

describe('formatCompact', () => {
  it('writes axis ticks short, with at most one decimal', () => {
    expect([0, 950, 25_000, 120_000, 1_500_000].map(formatCompact)).toEqual(['0', '950', '25K', '120K', '1.5M'])
  })
})

describe('shortenAddress', () => {
  it('keeps the first 4 and last 4 characters', () => {
    expect(shortenAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cfFFb92266')).toBe('0xf3 ... 2266')
  })
})
