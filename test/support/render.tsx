import { render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactElement } from 'react'
import { Provider } from 'react-redux'
import { MemoryRouter } from 'react-router-dom'
import { ThemeProvider } from 'styled-components'
import { makeStore, type RootState } from '../../src/app/store'
import { readBuildConfig, networksFor } from '../../src/config/buildConfig'
import type { DeploymentRecord } from '../../src/domain/deploymentRecord'
import { initialWalletState, type WalletState } from '../../src/features/wallet/slice'
import { initialTokenState } from '../../src/features/token/slice'
import { initialVestingState, type VestingState } from '../../src/features/vesting/slice'
import { DEV_ADDRESS } from './fixtures'
import { theme } from '../../src/ui/theme'

export const LOCAL_RECORD: DeploymentRecord = {
  chainId: 31337,
  network: 'localhost',
  startBlock: 1,
  deployedAt: 1_700_000_000,
  deployer: '0xf39Fd6e51aad88F6F4ce6aB8827279cfFFb92266',
  contracts: {
    token: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    reservoir: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
    poolsInfo: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
    factory: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
    harvest: '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707',
    lens: '0x0165878A594ca255338adfa4d48449f69242Eb8F',
    implV1: '0xa513E6E4b8f2a923D98304ec87F64353C4D5C853',
    implV2: '0x2279B7A0a67DB372996a5FaB50D91eAA73d2eBe6',
  },
  pools: [
    { id: 0, address: '0xd8058efe0198ae9dD7D563e1b4938Dcbc86A1F81', version: 2 },
    { id: 1, address: '0x6D544390Eb535d61e196c87d6B9c80dCD8628Acd', version: 1 },
  ],
  defaultPoolId: 1,
  vestingSigner: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
}

/** The network table of a build that has the local chain and BSC test net deployed. */
export const testNetworks = () =>
  networksFor({ ...readBuildConfig(), deployments: { 31337: LOCAL_RECORD, 97: { ...LOCAL_RECORD, chainId: 97 } } })

/** A wallet slice state on top of the defaults (networks included). */
export const walletState = (over: Partial<WalletState> = {}): WalletState => ({
  ...initialWalletState,
  networks: testNetworks(),
  ready: true,
  ...over,
})

/** The Development account connected on the local chain (the shell shows the pages). */
export const connectedWallet = (over: Partial<WalletState> = {}): WalletState =>
  walletState({
    address: DEV_ADDRESS,
    networkId: 31337,
    networkName: 'Localhost',
    wallet: { name: 'dev', connected: true },
    ...over,
  })

/**
 * Renders `ui` with the real store (no sagas), theme and router; returns the store, the actions dispatched and a
 * user-event session.
 */
export function renderWithProviders(ui: ReactElement, opts: { preloadedState?: Partial<RootState>; route?: string } = {}) {
  const store = makeStore({ wallet: walletState(), ...opts.preloadedState })
  // Every action the UI dispatches, in order, for tests of what a click asks for (sagas do not run here).
  const dispatched: { type: string; payload?: unknown }[] = []
  const dispatch = store.dispatch
  store.dispatch = ((action: { type: string; payload?: unknown }) => {
    dispatched.push(action)
    return dispatch(action as never)
  }) as typeof store.dispatch
  const user = userEvent.setup()
  const view = render(
    <Provider store={store}>
      <ThemeProvider theme={theme}>
        <MemoryRouter initialEntries={[opts.route ?? '/']}>{ui}</MemoryRouter>
      </ThemeProvider>
    </Provider>,
  )
  return { store, user, dispatched, ...view }
}

/** The claim page's state with a vesting answer in: the Development account connected, PLT, the answer `vesting`. */
export const answeredClaimState = (vesting: Partial<VestingState>): Partial<RootState> => ({
  wallet: connectedWallet(),
  token: { ...initialTokenState, symbol: 'PLT' },
  vesting: { ...initialVestingState, status: 'succeeded', chainStatus: 'succeeded', loadedAt: Date.now(), ...vesting },
})
