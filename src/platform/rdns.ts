/** Reverse DNS, as EIP-6963 names a wallet (e.g. "io.metamask"): the name of an announced wallet in the app. */
const RDNS = /^[a-z0-9](?:[a-z0-9-]{0,62})(?:\.[a-z0-9](?:[a-z0-9-]{0,62}))+$/i

export const isRdns = (s: unknown): s is string => typeof s === 'string' && s.length <= 253 && RDNS.test(s)
