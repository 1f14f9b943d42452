import { createGlobalStyle } from 'styled-components'

/** Dark, high-contrast palette (text on surface is above 12:1; muted text above 7:1). */
export const theme = {
  color: {
    bg: '#0b0f0d',
    surface: '#131a16',
    raised: '#1b241f',
    border: '#2a3a31',
    text: '#eef7f1',
    muted: '#a9bdb2',
    accent: '#3ddc84',
    accentText: '#06240f',
    focus: '#8ef0b6',
    danger: '#ff7a7a',
    warning: '#ffd27a',
    bsc: '#f3ba2f',
  },
  radius: '12px',
  font: `system-ui, -apple-system, 'Segoe UI', Roboto, Ubuntu, sans-serif`,
  mono: `ui-monospace, 'SF Mono', Menlo, Consolas, monospace`,
  /** Below this width the header collapses and the bottom navigation shows. */
  narrow: '720px',
}

export type AppTheme = typeof theme

export const GlobalStyle = createGlobalStyle`
  *, *::before, *::after { box-sizing: border-box; }
  html, body { margin: 0; background: ${theme.color.bg}; color: ${theme.color.text}; }
  body { font-family: ${theme.font}; font-size: 16px; line-height: 1.5; -webkit-font-smoothing: antialiased; }
  a { color: ${theme.color.accent}; }
  button, input, select { font: inherit; }
  :focus-visible { outline: 3px solid ${theme.color.focus}; outline-offset: 2px; }
  #root { min-height: 100vh; display: flex; flex-direction: column; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`
