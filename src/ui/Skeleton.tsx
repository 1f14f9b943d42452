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
