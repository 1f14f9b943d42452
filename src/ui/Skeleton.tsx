import styled, { keyframes } from 'styled-components'

const shimmer = keyframes`from { opacity: 0.5; } to { opacity: 1; }`

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
  animation: ${shimmer} 0.9s ease-in-out infinite alternate;
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
  animation: ${shimmer} 0.9s ease-in-out infinite alternate;
  strong {
    color: transparent;
  }
`
