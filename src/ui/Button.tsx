import styled, { css } from 'styled-components'

type Variant = 'primary' | 'secondary' | 'text'

export const Button = styled.button<{ $variant?: Variant; $block?: boolean }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 8px;
  min-height: 44px;
  padding: 8px 18px;
  text-align: center;
  line-height: 1.3;
  border-radius: 999px;
  border: 1px solid transparent;
  font-weight: 600;
  cursor: pointer;
  width: ${(p) => (p.$block ? '100%' : 'auto')};
  transition:
    background 0.15s,
    border-color 0.15s;
  ${(p) => {
    const c = p.theme.color
    switch (p.$variant ?? 'primary') {
      case 'primary':
        return css`
          background: ${c.accent};
          color: ${c.accentText};
          &:hover:not(:disabled) {
            background: ${c.focus};
          }
        `
      case 'secondary':
        return css`
          background: ${c.raised};
          color: ${c.text};
          border-color: ${c.border};
          &:hover:not(:disabled) {
            border-color: ${c.accent};
          }
        `
      case 'text':
        return css`
          background: none;
          color: ${c.accent};
          padding: 0 4px;
          min-height: 32px;
          text-decoration: underline;
        `
    }
  }}
  &:disabled {
    opacity: 0.45;
    cursor: not-allowed;
  }
`
