/**
 * The local explorer's HTML: one small self-contained page (no scripts, inline style only) per transaction or
 * address. Every value is escaped; the service's Content-Security-Policy forbids anything else anyway.
 */
export interface Field {
  label: string
  value: string
  /** Another explorer page this value opens (an address or a transaction). */
  href?: string
}

export interface Section {
  title: string
  fields: Field[]
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c])

const STYLE = `
  body { margin: 0; font: 15px/1.5 system-ui, sans-serif; background: #0b0f0e; color: #e8efec; }
  main { max-width: 860px; margin: 0 auto; padding: 32px 20px; }
  h1 { font-size: 1.4rem; margin: 0 0 4px; }
  h2 { font-size: 1rem; margin: 28px 0 8px; color: #9fb1aa; font-weight: 500; }
  p.sub { margin: 0 0 20px; color: #9fb1aa; }
  dl { display: grid; grid-template-columns: minmax(120px, 180px) 1fr; gap: 8px 16px; margin: 0;
       padding: 16px; border: 1px solid #24302c; border-radius: 12px; background: #111715; }
  dt { color: #9fb1aa; }
  dd { margin: 0; font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
  a { color: #3ddc84; }
  .ok { color: #3ddc84; } .bad { color: #ff6b6b; }
  @media (max-width: 560px) { dl { grid-template-columns: 1fr; gap: 2px; } dd { margin-bottom: 8px; } }
`

const field = (f: Field) => {
  const value = escapeHtml(f.value)
  const cls = f.label === 'Status' ? ` class="${f.value === 'Success' ? 'ok' : 'bad'}"` : ''
  return `<dt>${escapeHtml(f.label)}</dt><dd${cls}>${f.href ? `<a href="${escapeHtml(f.href)}">${value}</a>` : value}</dd>`
}

/** A whole page: a title, a line under it, and sections of label/value pairs. */
export function renderPage(title: string, subtitle: string, sections: Section[]): string {
  const body = sections.map((s) => `<h2>${escapeHtml(s.title)}</h2><dl>${s.fields.map(field).join('')}</dl>`).join('')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Local explorer</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1><p class="sub">${escapeHtml(subtitle)}</p>${body}</main></body></html>`
}
