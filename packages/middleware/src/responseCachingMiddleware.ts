import {
  canonicalJson,
  checkOptionKeys,
  optionKeys,
  ToolResult,
  type CallToolResult,
  type CanonicalJsonOptions,
} from '@parley/core';

import { Middleware } from './middleware.ts';
import { dependsOnAnswers, isAsk } from './roundOutcome.ts';
import type { CallNext, MiddlewareContext } from './types.ts';

/** Options of {@link ResponseCachingMiddleware}. */
export interface ResponseCachingOptions {
  /** How long a stored result is served, in ms. Default 60 000. */
  ttlMs?: number;
  /** The most results held; the least recently used goes first. Default 1 000. */
  maxEntries?: number;
  /** Also cache `tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`. Default true. */
  lists?: boolean;
  /** The clock, in ms. Default `Date.now`. */
  now?: () => number;
}

/** What the cache has done so far. */
export interface ResponseCacheStats {
  hits: number;
  misses: number;
  stores: number;
}

const API = 'ResponseCachingMiddleware';

const LIST_METHODS: ReadonlySet<string> = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
]);

interface Entry {
  value: unknown;
  expiresAt: number;
}

/** A copy, so neither a later middleware nor the SDK can change what the cache holds. */
function copyOf(value: unknown): unknown {
  if (value instanceof ToolResult) {
    return new ToolResult(structuredClone(value.toJSON()) as CallToolResult);
  }
  return structuredClone(value);
}

const OPTION_KEYS = optionKeys<ResponseCachingOptions>()(['ttlMs', 'maxEntries', 'lists', 'now']);

/**
 * A cache key is the canonical JSON of what the result depends on, so arguments that differ only
 * in key order share it. The arguments come from the client: their nesting is bounded.
 */
const CACHE_KEY_JSON: CanonicalJsonOptions = { maxDepth: 100 };

/**
 * Caches final results, keyed by method, target and the canonical JSON of the arguments (plus the
 * era and the authenticated principal, so one user's result is never served to another): results
 * of list calls, and of the tools, resources and resource templates the author registered with
 * `cacheable: true`. Mark only handlers whose final result depends on nothing but their
 * arguments.
 *
 * It never stores an ask (`InputRequiredToolResult` or `InputRequiredResult`: replaying it would
 * put a stale question to a later caller), an `isError` result, or a thrown error. It never serves
 * or stores a round whose result depends on answers that are not in the key: a continuation
 * round, any round of a resumed flow, and a handshake-era call that pushed an elicitation,
 * sampling or roots request while it ran. Such rounds pass straight through to the handler.
 */
export class ResponseCachingMiddleware extends Middleware {
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #lists: boolean;
  readonly #now: () => number;
  /** In least-recently-used order: a hit moves its entry to the back. */
  readonly #entries = new Map<string, Entry>();
  readonly #stats: ResponseCacheStats = { hits: 0, misses: 0, stores: 0 };

  constructor(options: ResponseCachingOptions = {}) {
    super();
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(`${API}: options must be an object.`);
    }
    checkOptionKeys(API, 'options', options, OPTION_KEYS);
    const { ttlMs = 60_000, maxEntries = 1_000, lists = true, now = Date.now } = options;
    if (typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs <= 0) {
      throw new RangeError(`${API}: ttlMs must be a positive number (got ${String(ttlMs)}).`);
    }
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(
        `${API}: maxEntries must be a positive integer (got ${String(maxEntries)}).`,
      );
    }
    if (typeof lists !== 'boolean') throw new TypeError(`${API}: lists must be a boolean.`);
    if (typeof now !== 'function') throw new TypeError(`${API}: now must be a function.`);
    this.#ttlMs = ttlMs;
    this.#maxEntries = maxEntries;
    this.#lists = lists;
    this.#now = now;
  }

  /** Counts of hits, misses (cacheable requests that ran the handler) and stored results. */
  get stats(): Readonly<ResponseCacheStats> {
    return { ...this.#stats };
  }

  /** How many results are held (expired ones included until they are next looked up). */
  get size(): number {
    return this.#entries.size;
  }

  /** Forget every stored result (after the data behind them changed, say). */
  clear(): void {
    this.#entries.clear();
  }

  override async onRequest(
    context: MiddlewareContext,
    callNext: CallNext<unknown>,
  ): Promise<unknown> {
    const key = this.#keyOf(context);
    if (key === undefined || dependsOnAnswers(context)) return callNext();

    const hit = this.#lookup(key);
    if (hit !== undefined) {
      this.#stats.hits += 1;
      return copyOf(hit.value);
    }
    this.#stats.misses += 1;
    const result = await callNext();
    // Checked again after the handler: a handshake-era call may have pushed a request meanwhile.
    if (isAsk(result) || dependsOnAnswers(context)) return result;
    if (result instanceof ToolResult && result.isError) return result;
    let copy: unknown;
    try {
      copy = copyOf(result);
    } catch {
      // Something in the result cannot be copied (a function, say): serve it, do not cache it.
      return result;
    }
    this.#store(key, copy);
    return result;
  }

  /** The cache key of a request, or `undefined` when its results are not cached. */
  #keyOf(context: MiddlewareContext): string | undefined {
    const { method, params } = context;
    let what: unknown;
    if (LIST_METHODS.has(method)) {
      if (!this.#lists) return undefined;
      what = params.cursor ?? null;
    } else if (method === 'tools/call' || method === 'resources/read') {
      if (context.handler?.cacheable !== true) return undefined;
      what = method === 'tools/call' ? [context.handler.name, params.arguments ?? {}] : params.uri;
    } else {
      return undefined;
    }
    return canonicalJson([method, context.era, context.principal ?? null, what], CACHE_KEY_JSON);
  }

  #lookup(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= this.#now()) return undefined;
    this.#entries.set(key, entry);
    return entry;
  }

  #store(key: string, value: unknown): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: this.#now() + this.#ttlMs });
    this.#stats.stores += 1;
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#maxEntries) break;
      this.#entries.delete(oldest);
    }
  }
}
