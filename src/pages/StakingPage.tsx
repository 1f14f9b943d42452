import { useEffect } from 'react'
import { useParams } from 'react-router-dom'
import { useAppDispatch } from '../app/hooks'
import { poolSelected } from '../features/stake/slice'
import { Card, Muted, PageTitle } from '../ui/Card'

/** Reads the route's pool id: a whole number, else the network's default pool. */
export function parsePoolId(raw: string | undefined): number | null {
  return raw !== undefined && /^\d{1,9}$/.test(raw) ? Number(raw) : null
}

/** 'Staking & Subscription' (SPEC section 2). The pool, deposits and stakes list compose in here. */
export function StakingPage() {
  const dispatch = useAppDispatch()
  const { id } = useParams()
  useEffect(() => {
    dispatch(poolSelected(parsePoolId(id)))
  }, [dispatch, id])
  return (
    <>
      <PageTitle>Staking &amp; Subscription</PageTitle>
      <Card>
        <Muted>Pools, deposits and your stakes appear here.</Muted>
      </Card>
    </>
  )
}
