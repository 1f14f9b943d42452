import styled from 'styled-components'
import { Card } from '../../../ui/Card'
import { VESTING_SCHEDULES } from '../selectors'

const List = styled.ul`
  list-style: none;
  margin: 12px 0 0;
  padding: 0;
  display: grid;
  gap: 10px;
  li {
    display: flex;
    justify-content: space-between;
    flex-wrap: wrap;
    gap: 4px 16px;
    padding: 12px 14px;
    border-radius: 10px;
    background: ${(p) => p.theme.color.raised};
  }
  strong {
    font-weight: 600;
  }
  span {
    color: ${(p) => p.theme.color.muted};
  }
`

const Title = styled.h2`
  margin: 0;
  font-size: 1.05rem;
`

/** The three rounds' vesting schedules (docs/product.md §2.7). */
export function VestingSchedules() {
  return (
    <Card aria-labelledby="vesting-schedules">
      <Title id="vesting-schedules">Vesting schedules</Title>
      <List>
        {VESTING_SCHEDULES.map((s) => (
          <li key={s.round}>
            <strong>{s.round}</strong>
            <span>{s.text}</span>
          </li>
        ))}
      </List>
    </Card>
  )
}
