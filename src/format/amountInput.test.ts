import fc from 'fast-check'
import { decimalSeparatorOf } from '../platform/locale'
import { type DecimalSeparator, parseAmountInput, readAmountInput, toInputText } from './amountInput'

describe('parseAmountInput', () => {
  it('parses plain decimals to base units', () => {
    expect(parseAmountInput('1')).toBe('1000000000000000000')
    expect(parseAmountInput('0.5')).toBe('500000000000000000')
    expect(parseAmountInput('007')).toBe('7000000000000000000')
    expect(parseAmountInput('.25')).toBe('250000000000000000')
    expect(parseAmountInput('7.')).toBe('7000000000000000000')
    expect(parseAmountInput('0.000000000000000001')).toBe('1')
    expect(parseAmountInput('123456789012345678901234567890')).toBe('123456789012345678901234567890000000000000000000')
  })
  it('refuses everything else', () => {
    for (const bad of [
      '',
      ' ',
      '-1',
      '+1',
      '1e5',
      '0x10',
      '1,000',
      '1.2.3',
      '.',
      'abc',
      '0.0000000000000000001',
      '1 000',
      ' 0.5 ',
      'Infinity',
      'NaN',
    ]) {
      expect(parseAmountInput(bad)).toBeNull()
    }
  })
})

describe('readAmountInput', () => {
  it.each([
    ['', 'required', 'Amount is required'],
    ['   ', 'required', 'Amount is required'],
    [' 12 ', 'spaces', 'Amount cannot contain spaces'],
    ['1 000', 'spaces', 'Amount cannot contain spaces'],
    ['12\t', 'spaces', 'Amount cannot contain spaces'],
    ['-1', 'negative', 'Amount cannot be negative'],
    ['-1e18', 'negative', 'Amount cannot be negative'],
    ['+1', 'plus', 'Amount cannot have a + sign'],
    ['1e18', 'exponent', 'Amount must be written out in full, without an exponent (e)'],
    ['1.5E-3', 'exponent', 'Amount must be written out in full, without an exponent (e)'],
    ['2e', 'exponent', 'Amount must be written out in full, without an exponent (e)'],
    ['1,5', 'comma', 'Amount cannot contain commas: use a point (.) for decimals'],
    ['1,000.5', 'comma', 'Amount cannot contain commas: use a point (.) for decimals'],
    ['abc', 'characters', 'Amount can contain only digits and a decimal point'],
    ['0x10', 'characters', 'Amount can contain only digits and a decimal point'],
    ['Infinity', 'characters', 'Amount can contain only digits and a decimal point'],
    ['１２', 'characters', 'Amount can contain only digits and a decimal point'],
    ['1_000', 'characters', 'Amount can contain only digits and a decimal point'],
    ['$5', 'characters', 'Amount can contain only digits and a decimal point'],
    ['1.2.3', 'points', 'Amount can have only one decimal point'],
    ['..', 'points', 'Amount can have only one decimal point'],
    ['.', 'noDigits', 'Amount must contain digits'],
    ['0.1234567890123456789', 'decimals', 'Amount can have at most 18 decimal places'],
    ['1.0000000000000000000', 'decimals', 'Amount can have at most 18 decimal places'],
    ['1' + '0'.repeat(60), 'tooLarge', 'Amount is too large'],
    ['9'.repeat(100_000), 'tooLarge', 'Amount is too large'],
  ])('names the problem with %j: %s', (text, problem, message) => {
    expect(readAmountInput(text)).toEqual({ ok: false, problem, message })
  })

  it('takes the decimals from the token', () => {
    expect(readAmountInput('1.1234567', 6)).toEqual({
      ok: false,
      problem: 'decimals',
      message: 'Amount can have at most 6 decimal places',
    })
    expect(readAmountInput('1.123456', 6)).toEqual({ ok: true, baseUnits: '1123456' })
  })

  it('gives the value parseUnits gives for a plain decimal, up to the largest uint256', () => {
    const max = 2n ** 256n - 1n
    const whole = max / 10n ** 18n
    const fraction = (max % 10n ** 18n).toString().padStart(18, '0')
    expect(readAmountInput(`${whole}.${fraction}`)).toEqual({ ok: true, baseUnits: max.toString() })
    expect(readAmountInput(`${whole}.${fraction.slice(0, -1)}${Number(fraction.slice(-1)) + 1}`).ok).toBe(false)
    expect(readAmountInput('0.000000000000000001')).toEqual({ ok: true, baseUnits: '1' })
    expect(readAmountInput('0')).toEqual({ ok: true, baseUnits: '0' })
  })
})

describe('toInputText', () => {
  it('gives the exact amount, never rounded', () => {
    expect(toInputText('1999999999999999999')).toBe('1.999999999999999999')
    expect(toInputText('5000000000000000000')).toBe('5')
    expect(parseAmountInput(toInputText('984021398799605282657476'))).toBe('984021398799605282657476')
  })
})

describe('amounts typed with the locale decimal separator', () => {
  it("finds a comma in the locales that write one, and a point elsewhere or for a tag Intl can't read", () => {
    expect(decimalSeparatorOf('de-DE')).toBe(',')
    expect(decimalSeparatorOf(['fr-FR', 'en-US'])).toBe(',')
    expect(decimalSeparatorOf('en-US')).toBe('.')
    expect(decimalSeparatorOf('ja-JP')).toBe('.')
    expect(decimalSeparatorOf('not a tag!')).toBe('.')
  })
  it('reads 10,5 and 10.5 alike with a comma locale, and exactly', () => {
    expect(parseAmountInput('10,5', 18, ',')).toBe('10500000000000000000')
    expect(parseAmountInput('10.5', 18, ',')).toBe('10500000000000000000')
    expect(parseAmountInput(',000000000000000001', 18, ',')).toBe('1')
    expect(parseAmountInput('1000', 18, ',')).toBe('1000000000000000000000')
  })
  it('refuses what a thousands grouping could have meant, rather than guess', () => {
    expect(readAmountInput('1.000', 18, ',')).toMatchObject({ ok: false, problem: 'grouping' })
    expect(readAmountInput('12.500.000', 18, ',')).toMatchObject({ ok: false, problem: 'grouping' })
    expect(readAmountInput('1.000,5', 18, ',')).toMatchObject({ ok: false, problem: 'grouping' })
    expect(readAmountInput('1,000.5', 18, ',')).toMatchObject({ ok: false, problem: 'grouping' })
    // Not three digits after the point: a decimal.
    expect(parseAmountInput('1.00', 18, ',')).toBe('1000000000000000000')
    expect(parseAmountInput('1.0001', 18, ',')).toBe('1000100000000000000')
  })
  it('names the comma in its messages, and keeps the other messages and their order', () => {
    expect(readAmountInput('1,2,3', 18, ',')).toEqual({
      ok: false,
      problem: 'points',
      message: 'Amount can have only one decimal comma',
    })
    expect(readAmountInput('1a', 18, ',')).toEqual({
      ok: false,
      problem: 'characters',
      message: 'Amount can contain only digits and a decimal comma',
    })
    expect(readAmountInput('1,5e3', 18, ',')).toMatchObject({ problem: 'exponent' })
    expect(readAmountInput('', 18, ',')).toMatchObject({ problem: 'required', message: 'Amount is required' })
    expect(readAmountInput('-1,5', 18, ',')).toMatchObject({ problem: 'negative' })
    // A point locale is unchanged: a comma is refused as before.
    expect(readAmountInput('10,5')).toMatchObject({
      problem: 'comma',
      message: 'Amount cannot contain commas: use a point (.) for decimals',
    })
  })
  it('MAX writes the comma, and what it writes reads back to the same base units, for every amount', () => {
    expect(toInputText('1500000000000000000', 18, ',')).toBe('1,5')
    expect(toInputText('1000000000000000000000', 18, ',')).toBe('1000')
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), fc.constantFrom<DecimalSeparator>('.', ','), (units, mark) => {
        const text = toInputText(units, 18, mark)
        const read = readAmountInput(text, 18, mark)
        expect(read).toEqual({ ok: true, baseUnits: units.toString() })
      }),
      { numRuns: 500 },
    )
  })
  it('reads a comma text as the point text it stands for, at every number of decimal places', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 40n }), fc.integer({ min: 0, max: 18 }), (units, places) => {
        const pointText = toInputText(units - (units % 10n ** BigInt(18 - places)), 18)
        expect(readAmountInput(pointText.replace('.', ','), 18, ',')).toEqual(readAmountInput(pointText, 18, '.'))
      }),
      { numRuns: 500 },
    )
  })
})
