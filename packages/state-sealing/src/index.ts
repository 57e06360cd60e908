/**
 * The public API of @parley/state-sealing. Everything exported here is public and versioned: add
 * to it deliberately, with a changeset.
 *
 * No `node:*` import anywhere: on Node, Bun and Deno the sealer reaches `node:crypto` through
 * `process.getBuiltinModule` at run time, so this one entry is safe for edge bundlers, where the
 * sealer uses WebCrypto.
 */

export { createRequestStateSealer } from './requestStateSealer.ts';
export type { OpenedToken, RequestStateSealer } from './sealerApi.ts';
export type { RequestStateSealerOptions } from './options.ts';
export type { BoundRequest, RequestBinding } from './binding.ts';
export type { SealingEngineName } from './engines/engine.ts';

export { RequestStateError } from './requestStateError.ts';
export type { RequestStateErrorReason } from './requestStateError.ts';

export { createMemoryReplayStore } from './replayStore.ts';
export type { MemoryReplayStoreOptions, ReplayStore } from './replayStore.ts';

export { generateKey } from './generateKey.ts';
