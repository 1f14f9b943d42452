import styled, { css, keyframes } from 'styled-components'

const shimmer = keyframes`from { opacity: 1; } to { opacity: 0.5; }`

/**
 * The placeholders' shimmer, once one has waited a second: a read that answers in time leaves still placeholders
 * (every animated frame costs the phone work while the page is busiest, docs/architecture.md §10), and a slow one shows
 * that the page is still at work. None for those who ask for less motion.
 */
const waiting = css`
  animation: ${shimmer} 0.9s ease-in-out 1s infinite alternate;
  @media (prefers-reduced-motion: reduce) {
    animation: none;
  }
`

/**
 * A grey placeholder block shown while a figure loads. Its aria-label ("Loading") needs a role that may carry a name:
 * a plain span may not (axe's aria-prohibited-attr), and a status would be announced again at every render.
 */
export const Skeleton = styled.span.attrs({ role: 'img' })<{ $width?: string; $height?: string }>`
  display: inline-block;
  width: ${(p) => p.$width ?? '100%'};
  height: ${(p) => p.$height ?? '1em'};
  border-radius: 6px;
  background: ${(p) => p.theme.color.raised};
  ${waiting}
`

/**
 * Placeholder text: the words it stands for, invisible, on placeholder bars, so it takes the size and the line breaks
 * of the text that replaces it. Hidden from assistive technology by its container.
 */
export const TextSkeleton = styled.span`
  color: transparent;
  border-radius: 6px;
  background: ${(p) => p.theme.color.raised};
  box-decoration-break: clone;
  -webkit-box-decoration-break: clone;
  ${waiting}
  strong {
    color: transparent;
  }
`
