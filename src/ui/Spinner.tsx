import styled, { keyframes } from 'styled-components'

const spin = keyframes`to { transform: rotate(360deg); }`

const Ring = styled.span<{ $size: number }>`
  display: inline-block;
  width: ${(p) => p.$size}px;
  height: ${(p) => p.$size}px;
  border: 3px solid ${(p) => p.theme.color.border};
  border-top-color: ${(p) => p.theme.color.accent};
  border-radius: 50%;
  animation: ${spin} 0.8s linear infinite;
  @media (prefers-reduced-motion: reduce) {
    animation-duration: 2.4s;
  }
`

export function Spinner({ size = 40, label = 'Loading' }: { size?: number; label?: string }) {
  return <Ring $size={size} role="status" aria-label={label} />
}
