import type { Dispatch, UnknownAction } from '@reduxjs/toolkit'
import { useDispatch, useSelector } from 'react-redux'

/**
 * The app's hooks, typed without the store: the store dispatches plain actions (no thunks), and each selector names
 * the slices it reads (`WalletRoot`, ...), from which useSelector infers the state. So nothing here imports the
 * composition root, and no feature reaches back up to it.
 */
export const useAppDispatch = useDispatch.withTypes<Dispatch<UnknownAction>>()
export const useAppSelector = useSelector
