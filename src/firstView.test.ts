import { renderFirstView } from './firstView'

describe('renderFirstView', () => {
  it.each([
    ['/', 'Claim'],
    ['/staking', 'Staking'],
  ])('renders %s as a first visit sees it: the header, its tab marked, and the connect prompt', (path, tab) => {
    const { html, css } = renderFirstView(path)
    expect(html).toContain('<p>Connect the wallet to continue working</p>')
    expect(html.match(/>Connect Wallet<\/button>/g)).toHaveLength(2)
    const current = [...html.matchAll(/<a aria-current="page"[^>]*>([^<]+)<\/a>/g)].map((m) => m[1])
    // The header's and the bottom navigation's link.
    expect(current).toEqual([tab, tab])
    // No spinner, no page, no dialog: nothing the app would replace with something else.
    expect(html).not.toMatch(/Loading|role="dialog"|role="status"/)
    // Every class the markup uses has its rule in the CSS.
    const classes = new Set([...html.matchAll(/class="([^"]+)"/g)].flatMap((m) => m[1].split(' ')))
    const styled = [...classes].filter((c) => !c.includes('-sc-'))
    expect(styled.length).toBeGreaterThan(5)
    for (const c of styled) expect(css).toContain(`.${c}{`)
  })
})
