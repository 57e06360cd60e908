import type { SealingEngineName } from './engines/engine.ts';
import type { ReplayStore } from './replayStore.ts';
import { checkKnownKeys } from './knownKeys.ts';
import { MIN_TOKEN_LENGTH } from './tokenFormat.ts';

/** Options of `createRequestStateSealer`. Only `audience` is required. */
export interface RequestStateSealerOptions {
  /**
   * The key ring: `keys[0]` seals, every key opens. Each secret is at least 32 bytes; a string
   * is taken as its UTF-8 bytes (a hex string is not decoded; it must have ≥ 64 digits). Give
   * every replica the same ring. Default: a random key made once per process, which is right for
   * one process and rejects tokens from any other.
   */
  keys?: ReadonlyArray<string | Uint8Array>;
  /** The server's name. A token sealed for one audience does not open for another. */
  audience: string;
  /** How long a token opens after it is sealed, in milliseconds. Default 600 000 (10 minutes). */
  ttlMs?: number;
  /** How far replicas' clocks may disagree, in milliseconds. Default 30 000. */
  clockSkewMs?: number;
  /** The longest token `seal` makes and `open` looks at, in bytes. Default 8192. */
  maxTokenBytes?: number;
  /** Milliseconds since the epoch; injectable for tests. Default `Date.now`. */
  now?: () => number;
  /** Makes every token single-use: a token opens once, then is `replayed`. Default none. */
  replayStore?: ReplayStore;
  /** Which crypto to use. Default `'auto'`: `node:crypto` where available, else WebCrypto. */
  engine?: SealingEngineName;
}

export const DEFAULT_TTL_MS = 600_000;
export const DEFAULT_CLOCK_SKEW_MS = 30_000;
export const DEFAULT_MAX_TOKEN_BYTES = 8192;
/** Tokens are for the rounds of one request; a year is far past any sane flow. */
export const MAX_TTL_MS: number = 366 * 24 * 60 * 60 * 1000;
const MAX_SKEW_MS = 60 * 60 * 1000;

/** The options after checking, with defaults filled in; times in milliseconds. */
export interface SealerSettings {
  keys: ReadonlyArray<string | Uint8Array> | undefined;
  audience: string;
  ttlMs: number;
  skewMs: number;
  maxTokenBytes: number;
  now: () => number;
  replayStore: ReplayStore | undefined;
  engine: SealingEngineName;
}

const SEALER_KEYS = [
  'keys',
  'audience',
  'ttlMs',
  'clockSkewMs',
  'maxTokenBytes',
  'now',
  'replayStore',
  'engine',
] as const satisfies readonly (keyof RequestStateSealerOptions)[];
// Every option is listed: a key added to the type and not here fails to compile.
void (undefined as unknown as Exclude<
  keyof RequestStateSealerOptions,
  (typeof SEALER_KEYS)[number]
> satisfies never);

/** Keys the options had once, and what to use instead. */
const RETIRED_KEYS: Readonly<Record<string, string>> = {
  ttlSeconds: 'use ttlMs, in milliseconds (ttlSeconds: 600 is ttlMs: 600_000)',
  clockSkewSeconds:
    'use clockSkewMs, in milliseconds (clockSkewSeconds: 30 is clockSkewMs: 30_000)',
};

/** Checks every option, throwing `TypeError`/`RangeError` with a message starting with `api`. */
export function checkOptions(options: RequestStateSealerOptions, api: string): SealerSettings {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${api}: options must be an object with at least { audience }`);
  }
  checkKnownKeys(api, options, SEALER_KEYS, RETIRED_KEYS);
  const {
    keys,
    audience,
    ttlMs = DEFAULT_TTL_MS,
    clockSkewMs = DEFAULT_CLOCK_SKEW_MS,
    maxTokenBytes = DEFAULT_MAX_TOKEN_BYTES,
    now = Date.now,
    replayStore,
    engine = 'auto',
  } = options;
  if (typeof audience !== 'string' || audience.length === 0) {
    throw new TypeError(
      `${api}: audience must be a non-empty string (the server's name, the same on every replica)`,
    );
  }
  if (!Number.isSafeInteger(ttlMs) || !(ttlMs > 0 && ttlMs <= MAX_TTL_MS)) {
    throw new RangeError(
      `${api}: ttlMs must be a whole number of milliseconds in (0, ${MAX_TTL_MS}] (got ${String(ttlMs)})`,
    );
  }
  if (!Number.isSafeInteger(clockSkewMs) || !(clockSkewMs >= 0 && clockSkewMs <= MAX_SKEW_MS)) {
    throw new RangeError(
      `${api}: clockSkewMs must be a whole number of milliseconds in [0, ${MAX_SKEW_MS}] (got ${String(clockSkewMs)})`,
    );
  }
  if (!Number.isSafeInteger(maxTokenBytes) || maxTokenBytes < MIN_TOKEN_LENGTH) {
    throw new RangeError(
      `${api}: maxTokenBytes must be an integer of at least ${MIN_TOKEN_LENGTH} (a token with empty state) (got ${String(maxTokenBytes)})`,
    );
  }
  if (typeof now !== 'function')
    throw new TypeError(`${api}: now must be a function returning milliseconds`);
  if (
    replayStore !== undefined &&
    (typeof replayStore !== 'object' ||
      replayStore === null ||
      typeof replayStore.claim !== 'function')
  ) {
    throw new TypeError(`${api}: replayStore must have a claim(tokenId, expiresAt) method`);
  }
  if (engine !== 'auto' && engine !== 'node' && engine !== 'webcrypto') {
    throw new TypeError(
      `${api}: engine must be 'auto', 'node' or 'webcrypto' (got ${String(engine)})`,
    );
  }
  return {
    keys,
    audience,
    ttlMs,
    skewMs: clockSkewMs,
    maxTokenBytes,
    now,
    replayStore,
    engine,
  };
}
