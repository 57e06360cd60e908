import type { InputRequest } from '@parley/core';

import type { Ask } from './answers.ts';

/**
 * Upstream calls the proxy keeps open between the downstream client's rounds. A call the
 * upstream runs its own way (pushed asks, or rounds the proxy's client drives) waits here on
 * every ask until the downstream person's answer arrives, in whichever round of the downstream
 * flow that is: the flow's sealed state names the call (its id), never its content.
 */

/**
 * One ask of a held call, keyed as the upstream keys it (`currency`), or by its place in the
 * call (`ask-1`, `ask-2`, …) when the upstream has no name for it.
 */
export interface HeldAsk {
  key: string;
  request: InputRequest;
}

/** The prefix of the keys the proxy keeps in a flow itself (`ctx.remember`). */
export const PROXY_KEYS = 'parley-proxy.';

/** What the relay does next: put asks to the person, or end with the upstream outcome. */
export type HeldStep =
  | { kind: 'asks'; asks: HeldAsk[] }
  | { kind: 'done'; value: unknown }
  | { kind: 'failed'; error: unknown };

interface PendingAsk extends HeldAsk {
  resolve(answer: unknown): void;
}

/** One upstream call held open: its asks as they come, their answers as they go. */
export class HeldCall {
  readonly id: string;
  readonly #controller = new AbortController();
  readonly #pending = new Map<string, PendingAsk>();
  #outcome: HeldStep | undefined;
  #asked = 0;
  /**
   * Every key this call has asked under. The downstream flow keeps each answer by its key for
   * the whole call, so an upstream that asks under a key again (a re-ask, a later round) gets a
   * new one (`currency-2`), never the answer already given.
   */
  readonly #keys = new Set<string>();
  /** Runs waiting for the next step (a client that retried a round may have two at once). */
  #waiting: (() => void)[] = [];

  constructor(id: string) {
    this.id = id;
  }

  /** Aborted when the call is given up (cancelled, timed out, closed). */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Run the upstream call; `ask` puts one of its asks to the person and resolves with the answer. */
  run(call: (ask: Ask) => Promise<unknown>): void {
    call((request, key) => this.#ask(request, key)).then(
      (value) => this.#settle({ kind: 'done', value }),
      (error: unknown) => this.#settle({ kind: 'failed', error }),
    );
  }

  /**
   * The next step: the asks without an answer yet (all of them, so one downstream round can
   * carry every ask of an upstream round), or the outcome once the call ended.
   */
  async next(): Promise<HeldStep> {
    for (;;) {
      if (this.#outcome !== undefined) return this.#outcome;
      if (this.#pending.size > 0) {
        // Asks of one upstream round arrive one after another in the same turn: take them all.
        await new Promise((resolve) => setImmediate(resolve));
        if (this.#outcome !== undefined) return this.#outcome;
        return {
          kind: 'asks',
          asks: [...this.#pending.values()].map(({ key, request }) => ({ key, request })),
        };
      }
      await new Promise<void>((resolve) => {
        this.#waiting.push(resolve);
      });
    }
  }

  /** Hand the person's answer to the ask waiting under `key` (once; a replayed answer is ignored). */
  answer(key: string, answer: unknown): void {
    const pending = this.#pending.get(key);
    if (pending === undefined) return;
    this.#pending.delete(key);
    pending.resolve(answer);
  }

  /** Give the call up: the upstream request is cancelled and the relay ends with `reason`. */
  abort(reason: unknown): void {
    this.#controller.abort(reason);
    this.#settle({ kind: 'failed', error: reason });
  }

  #ask(request: InputRequest, upstreamKey: string | undefined): Promise<unknown> {
    this.#asked += 1;
    const key = this.#unusedKey(upstreamKey ?? `ask-${this.#asked}`);
    this.#keys.add(key);
    return new Promise((resolve) => {
      this.#pending.set(key, { key, request, resolve });
      this.#poke();
    });
  }

  #unusedKey(wanted: string): string {
    // The proxy's own names in the flow are not the upstream's to take.
    const base =
      wanted.length === 0 || wanted.startsWith(PROXY_KEYS) ? `ask-${this.#asked}` : wanted;
    let key = base;
    for (let n = 2; this.#keys.has(key); n += 1) key = `${base}-${n}`;
    return key;
  }

  #settle(outcome: HeldStep): void {
    if (this.#outcome !== undefined) return;
    this.#outcome = outcome;
    this.#poke();
  }

  #poke(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const wake of waiting) wake();
  }
}

/**
 * The held calls of one proxy. A call waiting on the downstream client between its rounds is
 * given up after `timeoutMs` (the client went away); while a round is running it is not timed.
 */
export class HeldCalls {
  readonly #calls = new Map<string, { call: HeldCall; timer?: ReturnType<typeof setTimeout> }>();
  readonly #timeoutMs: number;
  readonly #timedOut: (timeoutMs: number) => unknown;

  constructor(timeoutMs: number, timedOut: (timeoutMs: number) => unknown) {
    this.#timeoutMs = timeoutMs;
    this.#timedOut = timedOut;
  }

  /** Hold a new call: `start` runs it, with `ask` for each of its asks. */
  open(start: (call: HeldCall, ask: Ask) => Promise<unknown>): HeldCall {
    const call = new HeldCall(crypto.randomUUID());
    this.#calls.set(call.id, { call });
    call.run((ask) => start(call, ask));
    return call;
  }

  /** The call a round comes back for; its wait for the client ends. */
  take(id: string): HeldCall | undefined {
    const entry = this.#calls.get(id);
    if (entry === undefined) return undefined;
    clearTimeout(entry.timer);
    entry.timer = undefined;
    return entry.call;
  }

  /** The round ended with asks: the call waits for the client's next round, timed. */
  release(id: string): void {
    const entry = this.#calls.get(id);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      this.forget(id);
      entry.call.abort(this.#timedOut(this.#timeoutMs));
    }, this.#timeoutMs);
    entry.timer.unref?.();
  }

  forget(id: string): void {
    const entry = this.#calls.get(id);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    this.#calls.delete(id);
  }

  get size(): number {
    return this.#calls.size;
  }

  /** Give up every held call (the proxy closes). */
  abortAll(reason: unknown): void {
    for (const [id, { call }] of [...this.#calls]) {
      this.forget(id);
      call.abort(reason);
    }
  }
}
