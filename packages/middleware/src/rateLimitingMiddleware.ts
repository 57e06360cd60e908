import { checkOptionKeys, optionKeys } from '@parley/core';
import { Middleware } from './middleware.ts';
import { RateLimitedError } from './rateLimitedError.ts';
import type { CallNext, MiddlewareContext } from './types.ts';

/** Options of {@link RateLimitingMiddleware}. */
export interface RateLimitingOptions {
  /** How many flows one key may start per window. */
  maxFlows: number;
  /** The sliding window, in milliseconds. */
  windowMs: number;
  /**
   * Who a flow is counted for. Default: the authenticated principal, or `'anonymous'` for every
   * unauthenticated caller together (the modern era has no session to tell them apart).
   */
  key?: (context: MiddlewareContext) => string;
  /** The most keys tracked at once (memory bound). Default 10 000. */
  maxKeys?: number;
  /** The clock, in ms. Default `Date.now`. */
  now?: () => number;
}

const API = 'RateLimitingMiddleware';

/** The calls that do work and may span rounds; lists are cheap and clients send them on connect. */
const COUNTED_METHODS: ReadonlySet<string> = new Set([
  'tools/call',
  'prompts/get',
  'resources/read',
]);

function defaultKey(context: MiddlewareContext): string {
  return context.principal ?? 'anonymous';
}

const OPTION_KEYS = optionKeys<RateLimitingOptions>()([
  'maxFlows',
  'windowMs',
  'key',
  'maxKeys',
  'now',
]);

/**
 * Limits how many calls a key starts per sliding window, counting a multi-round flow once: its
 * first round counts, and the rounds that resume it are free, so a booking that asks three times
 * costs one call, not three. "Resumes" means the round carried a sealed `requestState` the
 * server verified (`context.resumesFlow`), which a client cannot fake; a round that brings
 * answers without state starts a new flow and counts. On the handshake era a call is one round.
 *
 * Over the limit, the round throws a {@link RateLimitedError} before the handler runs. Lists
 * (`tools/list`, …) are not counted. The counts live in this process: with several replicas each
 * enforces its own limit.
 */
export class RateLimitingMiddleware extends Middleware {
  readonly #maxFlows: number;
  readonly #windowMs: number;
  readonly #key: (context: MiddlewareContext) => string;
  readonly #maxKeys: number;
  readonly #now: () => number;
  /** Start times of the counted flows per key, oldest first; keys in least-recent-use order. */
  readonly #starts = new Map<string, number[]>();

  constructor(options: RateLimitingOptions) {
    super();
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(`${API}: options must be an object with maxFlows and windowMs.`);
    }
    checkOptionKeys(API, 'options', options, OPTION_KEYS);
    const { maxFlows, windowMs, key = defaultKey, maxKeys = 10_000, now = Date.now } = options;
    if (!Number.isSafeInteger(maxFlows) || maxFlows < 1) {
      throw new RangeError(
        `${API}: maxFlows must be a positive integer (got ${String(maxFlows)}).`,
      );
    }
    if (typeof windowMs !== 'number' || !Number.isFinite(windowMs) || windowMs <= 0) {
      throw new RangeError(`${API}: windowMs must be a positive number (got ${String(windowMs)}).`);
    }
    if (!Number.isSafeInteger(maxKeys) || maxKeys < 1) {
      throw new RangeError(`${API}: maxKeys must be a positive integer (got ${String(maxKeys)}).`);
    }
    if (typeof key !== 'function') throw new TypeError(`${API}: key must be a function.`);
    if (typeof now !== 'function') throw new TypeError(`${API}: now must be a function.`);
    this.#maxFlows = maxFlows;
    this.#windowMs = windowMs;
    this.#key = key;
    this.#maxKeys = maxKeys;
    this.#now = now;
  }

  override async onRequest(
    context: MiddlewareContext,
    callNext: CallNext<unknown>,
  ): Promise<unknown> {
    if (COUNTED_METHODS.has(context.method) && !context.resumesFlow) this.#count(context);
    return callNext();
  }

  #count(context: MiddlewareContext): void {
    const key = this.#key(context);
    const time = this.#now();
    const starts = (this.#starts.get(key) ?? []).filter((start) => start > time - this.#windowMs);
    // Re-inserting keeps the map in least-recent-use order for the memory bound below.
    this.#starts.delete(key);
    if (starts.length >= this.#maxFlows) {
      this.#starts.set(key, starts);
      const oldest = starts[0] ?? time;
      throw new RateLimitedError({
        key,
        maxFlows: this.#maxFlows,
        windowMs: this.#windowMs,
        retryAfterMs: Math.max(0, oldest + this.#windowMs - time),
      });
    }
    starts.push(time);
    this.#starts.set(key, starts);
    if (this.#starts.size > this.#maxKeys) this.#evict(time);
  }

  /** Drop keys with nothing in the window; if still too many, forget the least recently used. */
  #evict(time: number): void {
    for (const [key, starts] of this.#starts) {
      if (starts.every((start) => start <= time - this.#windowMs)) this.#starts.delete(key);
    }
    for (const key of this.#starts.keys()) {
      if (this.#starts.size <= this.#maxKeys) break;
      this.#starts.delete(key);
    }
  }
}
