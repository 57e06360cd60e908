/**
 * `@parley/state-sealing/internal`: for `@parley/server` only. NOT part of the public API and NOT
 * covered by semver: any release may change or remove what is here. Everyone else wants the
 * sealer's own `seal`, `open` and `openToken`.
 *
 * The server seals and opens a token on every modern round; there a promise and an await per
 * round are a measurable share of the round (bench/), so it asks for the answer at once where
 * the engine can give it (`node:crypto`, once the keys are derived, no replay store): a value,
 * not a promise, and what the promise would reject with thrown. Where a step must wait
 * (WebCrypto, the first call before the keys are derived, a replay store's claim) the answer is
 * a promise, as it is from the sealer.
 *
 * Each function takes a sealer made by `createRequestStateSealer` of the same copy of the package
 * and throws a `TypeError` for anything else.
 */

import type { BoundRequest, RequestBinding } from './binding.ts';
import type { OpenedToken, RequestStateSealer } from './sealerApi.ts';
import { internalsOf } from './sealerInternals.ts';

/** `sealer.seal(plaintext, binding)`, answered at once where it can be. */
export function sealAtOnce(
  sealer: RequestStateSealer,
  plaintext: string,
  binding: RequestBinding | BoundRequest,
): string | Promise<string> {
  return internalsOf(sealer, 'sealAtOnce').seal(plaintext, binding);
}

/** `sealer.open(token, binding)`, answered at once where it can be. */
export function openAtOnce(
  sealer: RequestStateSealer,
  token: string,
  binding: RequestBinding | BoundRequest,
): string | Promise<string> {
  return internalsOf(sealer, 'openAtOnce').open(token, binding);
}

/** `sealer.openToken(token, binding)`, answered at once where it can be. */
export function openTokenAtOnce(
  sealer: RequestStateSealer,
  token: string,
  binding: RequestBinding | BoundRequest,
): OpenedToken | Promise<OpenedToken> {
  return internalsOf(sealer, 'openTokenAtOnce').openToken(token, binding);
}
