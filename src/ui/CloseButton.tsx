import type { ButtonHTMLAttributes } from 'react'
import styled, { css } from 'styled-components'

type Size = 'dialog' | 'notice'

const Cross = styled.button<{ $size: Size }>`
  background: none;
  border: 0;
  color: ${(p) => p.theme.color.muted};
  line-height: 1;
  cursor: pointer;
  ${(p) =>
    p.$size === 'dialog'
      ? css`
          font-size: 1.6rem;
          width: 40px;
          height: 40px;
          border-radius: 50%;
          &:hover {
            color: ${p.theme.color.text};
            background: ${p.theme.color.raised};
          }
        `
      : css`
          font-size: 1.3rem;
          padding: 0 4px;
        `}
`

type Props = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children' | 'type'> & {
  /** Its accessible name: 'Close' for a dialog, or what it closes ('Close notification'). */
  label?: string
  /** 'dialog': the round 40 px × of a dialog's title bar; 'notice': the small × in a notice's corner. */
  size?: Size
}

/** The × button that closes a dialog or a notice. */
export function CloseButton({ label = 'Close', size = 'dialog', ...rest }: Props) {
  return (
    <Cross type="button" aria-label={label} $size={size} {...rest}>
      ×
    </Cross>
  )
}
