/** A decimal mark (format/amountInput.ts DecimalSeparator): the platform layer imports no other. */
type DecimalSeparator = '.' | ','

/**
 * The decimal separator of `locale` (a BCP 47 tag such as 'de-DE', or the browser's languages): ',' where the locale
 * writes 1,5 for one and a half, '.' everywhere else.
 */
export function decimalSeparatorOf(locale: string | readonly string[] | undefined): DecimalSeparator {
  try {
    const mark = new Intl.NumberFormat(locale as string[] | undefined).formatToParts(1.5).find((p) => p.type === 'decimal')
    return mark?.value === ',' ? ',' : '.'
  } catch {
    return '.' // a tag Intl does not know
  }
}

let known: { languages: string; separator: DecimalSeparator } | null = null

/**
 * The decimal separator of the person's languages (navigator.languages): an amount field takes it beside the point
 * (format/amountInput.ts readAmountInput). Kept per list of languages, so a change of language in the browser is followed.
 * Outside a browser (the build's first view, tests without one) it is the point.
 */
export function userDecimalSeparator(): DecimalSeparator {
  if (typeof navigator === 'undefined') return '.'
  const languages = navigator.languages.join(',')
  if (known?.languages !== languages) known = { languages, separator: decimalSeparatorOf(navigator.languages) }
  return known.separator
}
