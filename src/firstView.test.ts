import { readBuildConfig } from './config/buildConfig'
import { renderFirstView } from './firstView'
import { LOCAL_RECORD } from '../test/support/render'

/** Every class the markup uses has a rule in the CSS (of its own, or for what it holds: `.x p{…}`). */
function expectStyled(html: string, css: string) {
  const classes = new Set([...html.matchAll(/class="([^"]+)"/g)].flatMap((m) => m[1].split(' ')))
  const styled = [...classes].filter((c) => !c.includes('-sc-'))
  expect(styled.length).toBeGreaterThan(5)
  for (const c of styled) expect(css).toMatch(new RegExp(`\\.${c}(?![\\w-])`))
}

const tabsMarked = (html: string) => [...html.matchAll(/<a aria-current="page"[^>]*>([^<]+)<\/a>/g)].map((m) => m[1])

describe('renderFirstView', () => {
  const deployed = { ...readBuildConfig({}), deployments: { 31337: LOCAL_RECORD }, defaultChainId: 31337 }

  it.each([
    ['/', 'Claim', ['Claim your allocation', 'Vesting schedules', 'Token contract']],
    ['/staking', 'Staking', ['Staking &amp; Subscription', 'Total staked', 'Total stakers', 'Token contract']],
  ])(
    'renders %s as a first visit sees it: the public page, the connect prompt where the figures go',
    async (path, tab, texts) => {
      const { html, css } = await renderFirstView(path, deployed)
      for (const text of texts) expect(html).toContain(text)
      // The holder's own figures: the spec's prompt and its button stand in their place (and the header's button).
      expect(html).toContain('<p>Connect the wallet to continue working</p>')
      expect(html.match(/>Connect Wallet<\/button>/g)).toHaveLength(2)
      // The header's and the bottom navigation's link.
      expect(tabsMarked(html)).toEqual([tab, tab])
      // No page spinner and no dialog: what the app replaces is only the figures' placeholders.
      expect(html).not.toMatch(/Loading page|Loading wallet|role="dialog"/)
      expectStyled(html, css)
    },
  )

  it('renders the shell connect prompt for a build whose default network has no contracts', async () => {
    const { html, css } = await renderFirstView('/', { ...readBuildConfig({}), deployments: {}, defaultChainId: 56 })
    expect(html).toContain('<p>Connect the wallet to continue working</p>')
    expect(html).not.toContain('Claim your allocation')
    expect(tabsMarked(html)).toEqual(['Claim', 'Claim'])
    expectStyled(html, css)
  })
})
