import { Link, useLocation } from 'react-router-dom'
import styled from 'styled-components'
import { keptSearch, NAV_LINKS } from './navLinks'

const Bar = styled.nav`
  display: none;
  @media (max-width: ${(p) => p.theme.narrow}) {
    display: grid;
    grid-template-columns: 1fr 1fr;
    position: fixed;
    left: 0;
    right: 0;
    bottom: 0;
    z-index: 40;
    background: ${(p) => p.theme.color.surface};
    border-top: 1px solid ${(p) => p.theme.color.border};
    padding-bottom: env(safe-area-inset-bottom);
  }
`

const Item = styled(Link)<{ $active: boolean }>`
  display: grid;
  place-items: center;
  min-height: 60px;
  text-decoration: none;
  font-weight: 700;
  color: ${(p) => (p.$active ? p.theme.color.accent : p.theme.color.muted)};
  border-top: 3px solid ${(p) => (p.$active ? p.theme.color.accent : 'transparent')};
`

/** Bottom navigation on narrow screens (the header's links hide there). */
export function MobileNav() {
  const { pathname, search } = useLocation()
  const kept = keptSearch(search)
  return (
    <Bar aria-label="Mobile">
      {NAV_LINKS.map((l) => (
        <Item key={l.to} to={l.to + kept} $active={l.isActive(pathname)} aria-current={l.isActive(pathname) ? 'page' : undefined}>
          {l.label}
        </Item>
      ))}
    </Bar>
  )
}
