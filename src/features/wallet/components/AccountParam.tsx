import { useEffect } from 'react'
import { useSearchParams } from 'react-router-dom'
import { useAppDispatch } from '../../../kit/hooks'
import { accountParamChanged } from '../slice'

/** Hands the route's `?account=` to the store whenever it changes; the wallet saga checks it (docs/product.md §2.8). */
export function AccountParam() {
  const dispatch = useAppDispatch()
  const [params] = useSearchParams()
  const account = params.get('account')
  useEffect(() => {
    dispatch(accountParamChanged(account))
  }, [dispatch, account])
  return null
}
