/**
 * Nothing but a module of the "chain" chunk: importing it waits for the chunk's file without evaluating anything else.
 * The root saga imports it first, so the contracts' and sagas' modules are evaluated in later tasks of their own, not in
 * the one where the file arrives (which already evaluates the pages' modules, as they share the file).
 */
export const chunkArrived = true
