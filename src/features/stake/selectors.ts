import { createSelector } from '@reduxjs/toolkit'
import type { RootState } from '../../app/store'
import { selectNetwork } from '../wallet/selectors'

/** The pool the staking page is about: the route's id, else the default pool of the wallet's network. */
export const selectActivePoolId = createSelector(
  [(s: RootState) => s.stake.poolId, selectNetwork],
  (routeId, network): number | null => routeId ?? network?.defaultPoolId ?? null,
)
