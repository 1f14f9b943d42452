import type { ReactNode } from 'react'
import { Link, useLocation } from 'react-router-dom'
import styled from 'styled-components'
import { keptSearch, NAV_LINKS } from './navLinks'

const Bar = styled.header`
  position: sticky;
  top: 0;
  z-index: 40;
  display: flex;
  align-items: center;
  gap: 24px;
  padding: 12px clamp(16px, 4vw, 40px);
  background: rgba(11, 15, 13, 0.92);
  backdrop-filter: blur(8px);
  border-bottom: 1px solid ${(p) => p.theme.color.border};
`

const Brand = styled(Link)`
  display: flex;
  align-items: center;
  gap: 10px;
  color: ${(p) => p.theme.color.text};
  text-decoration: none;
  font-weight: 800;
  letter-spacing: -0.02em;
  font-size: 1.15rem;
  span {
    width: 28px;
    height: 28px;
    border-radius: 8px;
    background: linear-gradient(135deg, ${(p) => p.theme.color.accent}, #1f8f55);
  }
`

const Nav = styled.nav`
  display: flex;
  gap: 4px;
  @media (max-width: ${(p) => p.theme.narrow}) {
    display: none;
  }
`

export const NavItem = styled(Link)<{ $active: boolean }>`
  padding: 8px 14px;
  border-radius: 999px;
  text-decoration: none;
  font-weight: 600;
  color: ${(p) => (p.$active ? p.theme.color.text : p.theme.color.muted)};
  background: ${(p) => (p.$active ? p.theme.color.raised : 'transparent')};
  &:hover {
    color: ${(p) => p.theme.color.text};
  }
`

const Right = styled.div`
  margin-left: auto;
`

/** The top bar: brand, the main navigation, and on the right what the app puts there (`actions`: the wallet button). */
export function Header({ actions }: { actions?: ReactNode }) {
  const { pathname, search } = useLocation()
  const kept = keptSearch(search)
  return (
    <Bar>
      <Brand to="/" aria-label="Vesting, home">
        <span />
        Vesting
      </Brand>
      <Nav aria-label="Main">
        {NAV_LINKS.map((l) => (
          <NavItem
            key={l.to}
            to={l.to + kept}
            $active={l.isActive(pathname)}
            aria-current={l.isActive(pathname) ? 'page' : undefined}
          >
            {l.label}
          </NavItem>
        ))}
      </Nav>
      <Right>{actions}</Right>
    </Bar>
  )
}
