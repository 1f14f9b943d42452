import styled from 'styled-components'

const Page = styled.main`
  min-height: 100vh;
  display: grid;
  place-items: center;
  color: #e8f5ee;
  font-family: system-ui, sans-serif;
`

/** Root component; the app shell (store, wallet, routes) mounts here. */
export function App() {
  return (
    <Page>
      <h1>Claim your allocation</h1>
    </Page>
  )
}
