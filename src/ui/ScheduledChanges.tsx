import styled from 'styled-components'
import { WarningBox } from './WarningBox'

const Box = styled(WarningBox).attrs({ as: 'section' })`
  h3 {
    margin: 0 0 4px;
    font-size: 0.95rem;
    color: ${(p) => p.theme.color.warning};
  }
  ul {
    margin: 0;
    padding-left: 18px;
  }
`

/**
 * Owner changes scheduled for the pool a dialog is about (one line each, e.g. "From 26 Nov 2026 14:00 UTC: early-close
 * fee 100%"), so nobody stakes unaware of them. Nothing shows when there are none.
 */
export function ScheduledChanges({ lines }: { lines: string[] }) {
  if (lines.length === 0) return null
  return (
    <Box aria-labelledby="scheduled-changes-title" data-testid="scheduled-changes">
      <h3 id="scheduled-changes-title">Scheduled changes to this pool</h3>
      <ul>
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </Box>
  )
}
