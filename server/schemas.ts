/** JSON-schema pieces the routes share (Fastify validates params and bodies with them). */
export const ADDRESS = { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' } as const
