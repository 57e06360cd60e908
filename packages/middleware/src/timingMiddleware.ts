import { checkOptionKeys, optionKeys, type Era } from '@parley/core';

import { Middleware } from './middleware.ts';
import { outcomeOf, targetOf, type RoundOutcome } from './roundOutcome.ts';
import type { CallNext, MiddlewareContext } from './types.ts';

/** How long one round took. */
export interface RoundTiming {
  method: string;
  target: string | undefined;
  era: Era;
  /** `undefined` for lists. */
  flowId: string | undefined;
  round: number | undefined;
  outcome: RoundOutcome;
  durationMs: number;
}

/** How long a whole flow took, reported on its last round. */
export interface FlowTiming {
  method: string;
  target: string | undefined;
  era: Era;
  flowId: string;
  /** How many rounds the flow took (1 on the handshake era). */
  rounds: number;
  /** How the last round ended. */
  outcome: Exclude<RoundOutcome, 'input_required'>;
  /** When the first round started (ms since the epoch; carried sealed across replicas). */
  startedAt: number;
  /** From the first round's start to the end of the last, including the time people took to answer. */
  durationMs: number;
}

/** Options of {@link TimingMiddleware}. */
export interface TimingOptions {
  /** Called after every round. */
  onRound?: (timing: RoundTiming) => void;
  /** Called when a flow ends: on a round that does not ask again. */
  onFlow?: (timing: FlowTiming) => void;
  /**
   * The clock, in ms since the epoch, for tests. Default: rounds are timed with the monotonic
   * `performance.now()`, flows with `Date.now()` (the clock the server stamps a flow's start
   * with, which may have been on another replica).
   */
  now?: () => number;
}

const API = 'TimingMiddleware';

function writeToStderr(line: string): void {
  // eslint-disable-next-line no-console -- stderr is the one stream a stdio server leaves free
  console.error(`[parley] ${line}`);
}

const OPTION_KEYS = optionKeys<TimingOptions>()(['onRound', 'onFlow', 'now']);

/**
 * Times every round and, through the flow identity, every whole flow: a three-round booking
 * reports three round timings and, on its last round, one flow timing from the first round's
 * start. The flow's start travels sealed in `requestState`, so this works when rounds land on
 * different replicas (their clocks should agree). Without callbacks, both go to stderr.
 */
export class TimingMiddleware extends Middleware {
  readonly #onRound: (timing: RoundTiming) => void;
  readonly #onFlow: (timing: FlowTiming) => void;
  /** Round durations. */
  readonly #tick: () => number;
  /** Flow durations: epoch ms, comparable with `flow.startedAt`. */
  readonly #clock: () => number;

  constructor(options: TimingOptions = {}) {
    super();
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(`${API}: options must be an object.`);
    }
    checkOptionKeys(API, 'options', options, OPTION_KEYS);
    const { onRound, onFlow, now } = options;
    if (onRound !== undefined && typeof onRound !== 'function') {
      throw new TypeError(`${API}: onRound must be a function.`);
    }
    if (onFlow !== undefined && typeof onFlow !== 'function') {
      throw new TypeError(`${API}: onFlow must be a function.`);
    }
    if (now !== undefined && typeof now !== 'function') {
      throw new TypeError(`${API}: now must be a function.`);
    }
    const toStderr = onRound === undefined && onFlow === undefined;
    this.#onRound =
      onRound ??
      (toStderr
        ? (t) =>
            writeToStderr(
              `timing ${t.method} ${t.target ?? '-'}${t.round === undefined ? '' : ` round=${t.round}`} ${t.durationMs.toFixed(1)}ms`,
            )
        : () => {});
    this.#onFlow =
      onFlow ??
      (toStderr
        ? (t) =>
            writeToStderr(
              `timing ${t.method} ${t.target ?? '-'} flow=${t.flowId} ${t.rounds} round${t.rounds === 1 ? '' : 's'} ${t.durationMs.toFixed(1)}ms`,
            )
        : () => {});
    this.#tick = now ?? (() => performance.now());
    this.#clock = now ?? Date.now;
  }

  override async onRequest(
    context: MiddlewareContext,
    callNext: CallNext<unknown>,
  ): Promise<unknown> {
    const started = this.#tick();
    try {
      const result = await callNext();
      this.#report(context, started, outcomeOf(result).outcome);
      return result;
    } catch (error) {
      this.#report(context, started, 'error');
      throw error;
    }
  }

  #report(context: MiddlewareContext, started: number, outcome: RoundOutcome): void {
    const durationMs = this.#tick() - started;
    const target = targetOf(context);
    const { flow } = context;
    this.#onRound({
      method: context.method,
      target,
      era: context.era,
      flowId: flow?.id,
      round: flow?.round,
      outcome,
      durationMs,
    });
    if (flow === undefined || outcome === 'input_required') return;
    this.#onFlow({
      method: context.method,
      target,
      era: context.era,
      flowId: flow.id,
      rounds: flow.round,
      outcome,
      startedAt: flow.startedAt,
      durationMs: this.#clock() - flow.startedAt,
    });
  }
}
