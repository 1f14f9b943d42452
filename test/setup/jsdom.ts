import { TextDecoder, TextEncoder } from 'node:util'

// jsdom lacks TextEncoder/TextDecoder, which ethers needs.
Object.assign(globalThis, { TextEncoder, TextDecoder })
