import { Card, Muted, PageTitle } from '../ui/Card'

/** 'Claim your allocation' (SPEC section 2). The vesting figures and claim flows compose in here. */
export function ClaimPage() {
  return (
    <>
      <PageTitle>Claim your allocation</PageTitle>
      <Card>
        <Muted>Vesting status and claims for this wallet appear here.</Muted>
      </Card>
    </>
  )
}
