import { createRequestStateSealer } from '@parley/state-sealing';

import type { RequestStateSecurity } from './options.ts';

/**
 * Where a server's request-state key ring comes from, and what `run()` over HTTP says when there
 * is none. Without a ring every process seals with a random key of its own, so a `requestState`
 * does not open after a restart or on another replica (`InvalidRequestStateError`, `unknown-key`):
 * fine for stdio and one worker, a silent failure behind a balancer. So the server reads the ring
 * the demo apps read (`REQUEST_STATE_KEY`), warns once when it serves HTTP without one, and
 * refuses to in production unless told that one process is meant.
 */

/** The environment variable a key ring is read from: comma-separated, the first seals, all open. */
export const REQUEST_STATE_KEY_VARIABLE = 'REQUEST_STATE_KEY';

const KEYGEN = 'npx @parley/state-sealing keygen';
const HOW_TO_SET =
  `give every replica the same key ring: ${REQUEST_STATE_KEY_VARIABLE}=$(${KEYGEN}) in the ` +
  'environment, or requestStateSecurity.keys';

/** The ring a server seals with, and where it was found (`undefined`: none, a per-process key). */
export interface ConfiguredKeys {
  keys: ReadonlyArray<string | Uint8Array> | undefined;
  from: 'option' | 'environment' | undefined;
}

/** What is read of Deno's permissions, where there is a Deno. */
interface DenoPermissions {
  permissions?: { querySync?(descriptor: { name: 'env'; variable: string }): { state: string } };
}

/** One variable of the environment, where there is one (Workers and browsers may have none). */
function environmentVariable(name: string): string | undefined {
  try {
    // Deno asks the person at the terminal before a read it was not allowed: ask Deno first.
    const deno = (globalThis as { Deno?: DenoPermissions }).Deno;
    if (deno?.permissions?.querySync?.({ name: 'env', variable: name }).state === 'prompt') {
      return undefined;
    }
    return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
      ?.env?.[name];
  } catch {
    // A runtime that refuses the read (Deno denied it): that is no key ring, not a crash.
    return undefined;
  }
}

/**
 * The key ring: `requestStateSecurity.keys` when given (an explicit option wins), else
 * `REQUEST_STATE_KEY`, else none. A ring from the environment that cannot seal fails here,
 * naming the variable.
 */
export function configuredKeys(
  security: RequestStateSecurity | undefined,
  audience: string,
): ConfiguredKeys {
  const allow = security?.allowEphemeralKeys;
  if (allow !== undefined && typeof allow !== 'boolean') {
    throw new TypeError(
      `ParleyServer: requestStateSecurity.allowEphemeralKeys must be true or false (got ${JSON.stringify(allow)}).`,
    );
  }
  if (security?.keys !== undefined) return { keys: security.keys, from: 'option' };
  const value = environmentVariable(REQUEST_STATE_KEY_VARIABLE);
  const keys = (value ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  // Unset and empty are alike: compose files and CI often pass an empty variable for "none".
  if (keys.length === 0) return { keys: undefined, from: undefined };
  try {
    createRequestStateSealer({ audience, keys });
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^[\w.]+: /, '') : String(error);
    throw new RangeError(
      `ParleyServer: ${REQUEST_STATE_KEY_VARIABLE} is not a usable key ring (comma-separated ` +
        `secrets, the first seals, all open): ${reason}`,
      { cause: error },
    );
  }
  return { keys, from: 'environment' };
}

let warned = false;

/**
 * Before `run()` serves HTTP: with no key ring, refuse under `NODE_ENV=production` unless
 * `allowEphemeralKeys` says one process is meant, and otherwise say so once per process (every
 * server of a process without a ring shares its one random key, so once is the whole story).
 */
export function checkKeysForHttp(
  keys: ConfiguredKeys,
  security: RequestStateSecurity | undefined,
  warn: (message: string) => void,
): void {
  if (keys.from !== undefined || security?.allowEphemeralKeys === true) return;
  if (environmentVariable('NODE_ENV') === 'production') {
    throw new Error(
      'ParleyServer: NODE_ENV is production and no request-state key ring is set, so sealed ' +
        `state would not survive a restart or cross replicas; ${HOW_TO_SET} ` +
        '(or requestStateSecurity.allowEphemeralKeys: true when one process is meant).',
    );
  }
  if (warned) return;
  warned = true;
  warn(
    'no request-state key ring is set, so this process seals requestState with a random key of ' +
      'its own: a multi-round call will not survive a restart or cross replicas ' +
      `(InvalidRequestStateError, unknown-key); ${HOW_TO_SET} ` +
      '(requestStateSecurity.allowEphemeralKeys: true silences this when one process is meant).',
  );
}
