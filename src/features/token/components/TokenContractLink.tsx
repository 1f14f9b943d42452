import styled from 'styled-components'
import { useAppSelector } from '../../../kit/hooks'
import { shortenAddress } from '../../../format/units'
import { selectTokenContract } from '../selectors'

const Line = styled.p`
  margin: 0 0 24px;
  color: ${(p) => p.theme.color.muted};
  font-size: 0.95rem;
  code {
    font-family: ${(p) => p.theme.mono};
    color: ${(p) => p.theme.color.text};
  }
`

/** 'Token contract' with the address linked to the network's explorer (plain text where there is none). */
export function TokenContractLink() {
  const token = useAppSelector(selectTokenContract)
  if (!token) return null
  const short = shortenAddress(token.address)
  const label = <code title={token.address}>{short}</code>
  return (
    <Line>
      Token contract:{' '}
      {token.url ? (
        <a href={token.url} target="_blank" rel="noreferrer" aria-label={`Token contract ${short} on ${token.explorerName}`}>
          {label}
        </a>
      ) : (
        label
      )}
    </Line>
  )
}
