import type { BoundRequest, RequestBinding } from './binding.ts';
import type { OpenedToken, RequestStateSealer } from './sealerApi.ts';

/**
 * What a sealer can do at once where its engine answers at once (`node:crypto`, keys derived,
 * no replay store): the same tokens and checks as `seal`, `open` and `openToken`, as a value
 * rather than a promise, throwing what the promise would reject with. Reached only through
 * `@parley/state-sealing/internal` (see `internal.ts`), never through the sealer itself, so the
 * public sealer stays `seal`, `open`, `openToken` and `bind`.
 */
export interface SealerInternals {
  seal(plaintext: string, binding: RequestBinding | BoundRequest): string | Promise<string>;
  open(token: string, binding: RequestBinding | BoundRequest): string | Promise<string>;
  openToken(
    token: string,
    binding: RequestBinding | BoundRequest,
  ): OpenedToken | Promise<OpenedToken>;
}

/** Filled by `createRequestStateSealer`, one entry per sealer; never exported. */
const internals = new WeakMap<RequestStateSealer, SealerInternals>();

export function registerInternals(sealer: RequestStateSealer, inner: SealerInternals): void {
  internals.set(sealer, inner);
}

/**
 * The internals of a sealer this copy of the package made. Anything else (an object that only
 * looks like a sealer, or a sealer of another copy of the package) is a `TypeError` naming `api`.
 */
export function internalsOf(sealer: RequestStateSealer, api: string): SealerInternals {
  const inner = typeof sealer === 'object' && sealer !== null ? internals.get(sealer) : undefined;
  if (inner === undefined) {
    throw new TypeError(
      `${api}: the sealer was not made by createRequestStateSealer of this copy of @parley/state-sealing`,
    );
  }
  return inner;
}
