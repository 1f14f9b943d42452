import { formatAmount, formatPercent, parseAmountInput, shortenAddress, toInputText } from './units'

describe('formatAmount', () => {
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
    expect(formatAmount('123456', 6, 4)).toBe('0.1234')
    expect(formatAmount('1500000000000000000', 18, 0)).toBe('1')
    expect(formatPercent(12_345_000_000_000_000_000n)).toBe('12.34')
  })
})

describe('parseAmountInput', () => {
  it('parses plain decimals to base units', () => {
    expect(parseAmountInput('1')).toBe('1000000000000000000')
    expect(parseAmountInput(' 0.5 ')).toBe('500000000000000000')
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
      'Infinity',
      'NaN',
    ]) {
      expect(parseAmountInput(bad)).toBeNull()
    }
  })
})

describe('toInputText', () => {
  it('gives the exact amount, never rounded', () => {
    expect(toInputText('1999999999999999999')).toBe('1.999999999999999999')
    expect(toInputText('5000000000000000000')).toBe('5')
    expect(parseAmountInput(toInputText('984021398799605282657476'))).toBe('984021398799605282657476')
  })
})

describe('shortenAddress', () => {
  it('keeps the first 4 and last 4 characters', () => {
    expect(shortenAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cfFFb92266')).toBe('0xf3 ... 2266')
  })
})
