import { useEffect, useId, useRef, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import styled from 'styled-components'
import { CloseButton } from './CloseButton'
import { SpreadRow } from './SpreadRow'

const Backdrop = styled.div`
  position: fixed;
  inset: 0;
  z-index: 50;
  background: rgba(0, 0, 0, 0.72);
  display: grid;
  place-items: center;
  padding: 16px;
`

/** A dialog of figures and a form is 460 px wide; one that draws a chart beside them (`wide`) up to 880 px. */
const Panel = styled.div<{ $wide: boolean }>`
  width: min(${(p) => (p.$wide ? 880 : 460)}px, 100%);
  max-height: calc(100vh - 32px);
  overflow: auto;
  background: ${(p) => p.theme.color.surface};
  border: 1px solid ${(p) => p.theme.color.border};
  border-radius: ${(p) => p.theme.radius};
  padding: 24px;
  box-shadow: 0 24px 64px rgba(0, 0, 0, 0.6);
`

/** The title and the close button on one line: a long title wraps within itself, never under the button. */
const Head = styled(SpreadRow)`
  flex-wrap: nowrap;
  margin-bottom: 16px;
  h2 {
    margin: 0;
    font-size: 1.25rem;
  }
`

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])'

/**
 * An accessible dialog: focus moves into it, Tab and Shift+Tab stay inside, Escape or the backdrop closes it, and
 * focus returns to whatever opened it.
 */
export function Modal({
  title,
  onClose,
  children,
  wide = false,
}: {
  title: string
  onClose: () => void
  children: ReactNode
  wide?: boolean
}) {
  const panel = useRef<HTMLDivElement>(null)
  const titleId = useId()
  const close = useRef(onClose)
  close.current = onClose

  const focusables = () => [...(panel.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])]
  const focusEdge = (last: boolean) => {
    const items = focusables()
    ;(last ? items[items.length - 1] : items[0])?.focus()
  }

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null
    ;(focusables()[0] ?? panel.current)?.focus()
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return
      e.stopPropagation()
      close.current()
    }
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('keydown', onKey)
      opener?.focus?.()
    }
  }, [])

  // The two sentinels catch Tab past the last item and Shift+Tab before the first and wrap focus round, whatever the
  // browser's order inside (radio groups and disabled buttons make "the last item" hard to predict).
  return createPortal(
    <Backdrop onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <span tabIndex={0} onFocus={() => focusEdge(true)} />
      <Panel ref={panel} $wide={wide} role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1}>
        <Head>
          <h2 id={titleId}>{title}</h2>
          <CloseButton onClick={onClose} />
        </Head>
        {children}
      </Panel>
      <span tabIndex={0} onFocus={() => focusEdge(false)} />
    </Backdrop>,
    document.body,
  )
}
