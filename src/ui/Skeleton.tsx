import styled, { keyframes } from 'styled-components'

const shimmer = keyframes`from { opacity: 0.5; } to { opacity: 1; }`

/** A grey placeholder block shown while a figure loads. */
export const Skeleton = styled.span<{ $width?: string; $height?: string }>`
  display: inline-block;
  width: ${(p) => p.$width ?? '100%'};
  height: ${(p) => p.$height ?? '1em'};
  border-radius: 6px;
  background: ${(p) => p.theme.color.raised};
  animation: ${shimmer} 0.9s ease-in-out infinite alternate;
`
