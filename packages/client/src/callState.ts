import { RoundsExceededError, type InputRequiredResult } from '@parley/core';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

import type { CallTrace } from './telemetry.ts';
import type { CallInfo } from './types.ts';

/**
 * One in-flight `callTool` / `getPrompt` / `readResource`: its round count and bound, and one
 * way to stop it (a typed failure that wins over whatever the SDK request does afterwards).
 */
export class CallState {
  readonly info: CallInfo;
  readonly maxRounds: number;
  readonly timeoutMs: number;
  /** Rounds answered (modern) or requests pushed while it was in flight (handshake). */
  rounds = 0;
  /** The call's spans, while telemetry is on. */
  trace: CallTrace | undefined;
  readonly failed: Promise<never>;
  readonly #controller = new AbortController();
  #reject: (error: unknown) => void = () => {};
  #settled = false;
  #stopped = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #holds = 0;
  #timed = false;
  readonly #unlink: () => void;

  constructor(info: CallInfo, maxRounds: number, timeoutMs: number, signal?: AbortSignal) {
    this.info = info;
    this.maxRounds = maxRounds;
    this.timeoutMs = timeoutMs;
    this.failed = new Promise<never>((_, reject) => {
      this.#reject = reject;
    });
    // Observed by the race in the client; this keeps an unraced failure from being "unhandled".
    this.failed.catch(() => {});
    const onAbort = (): void => this.fail(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    this.#unlink = () => signal?.removeEventListener('abort', onAbort);
    if (signal?.aborted) onAbort();
  }

  /** Aborted when the call fails or is cancelled: passed to the SDK request and to handlers. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get isSettled(): boolean {
    return this.#settled;
  }

  /** True when the client stopped the call (bound, handler error, timeout, cancel, close). */
  get wasStopped(): boolean {
    return this.#stopped;
  }

  /** The error of a call that still asks past its bound, with the ask it stopped at. */
  roundsExceeded(lastResult: InputRequiredResult): RoundsExceededError {
    return new RoundsExceededError(`${this.info.method} '${this.info.name}'`, {
      maxRounds: this.maxRounds,
      lastResult,
    });
  }

  /** Stop the call with `error` (the first failure wins) and cancel its request on the wire. */
  fail(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#stopped = true;
    this.#clearTimer();
    this.#reject(error);
    this.#controller.abort(error);
  }

  /**
   * Handshake era: the SDK request cannot tell waiting on the server from waiting on a person,
   * so the client times the server itself, and only while no handler is running.
   */
  startTimer(): void {
    this.#timed = true;
    this.#arm();
  }

  #arm(): void {
    this.#clearTimer();
    if (this.#settled || this.#holds > 0) return;
    this.#timer = setTimeout(() => {
      this.fail(
        new SdkError(
          SdkErrorCode.RequestTimeout,
          `${this.info.method} '${this.info.name}' timed out: the server did not answer within ${this.timeoutMs} ms`,
          { timeout: this.timeoutMs },
        ),
      );
    }, this.timeoutMs);
  }

  /** Pause the timer while a handler answers; the returned function resumes it (from zero). */
  hold(): () => void {
    this.#holds += 1;
    this.#clearTimer();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#holds -= 1;
      if (this.#holds === 0 && this.#timed) this.#arm();
    };
  }

  /** The call is over: stop timing and let go of the caller's signal. */
  dispose(): void {
    this.#settled = true;
    this.#timed = false;
    this.#clearTimer();
    this.#unlink();
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** The calls in flight on one connection, for attributing the requests a server pushes. */
export class CallRegistry {
  readonly #inFlight = new Set<CallState>();
  /** Calls the client stopped, until when their server side may still be pushing (ms). */
  readonly #stopped = new Map<CallState, number>();

  add(state: CallState): void {
    this.#inFlight.add(state);
  }

  /**
   * The call is over. One the client stopped is remembered for its timeout: the server learns
   * of the cancellation asynchronously (on HTTP the notice travels in a request of its own) and
   * may push another request for it before it does.
   */
  delete(state: CallState, now: number = Date.now()): void {
    this.#inFlight.delete(state);
    if (state.wasStopped) this.#stopped.set(state, now + state.timeoutMs);
  }

  /** The calls still running, oldest first. */
  inFlight(): CallState[] {
    return [...this.#inFlight].filter((state) => !state.isSettled);
  }

  /** True while a call the client stopped may still have requests in flight towards it. */
  hasRecentlyStopped(now: number = Date.now()): boolean {
    for (const [state, until] of this.#stopped) if (until <= now) this.#stopped.delete(state);
    return this.#stopped.size > 0 || [...this.#inFlight].some((state) => state.wasStopped);
  }
}
