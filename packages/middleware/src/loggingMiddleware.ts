import {
  InvalidAnswerError,
  checkOptionKeys,
  optionKeys,
  type Era,
  type InputResponses,
} from '@parley/core';

import { Middleware } from './middleware.ts';
import { describeError, outcomeOf, targetOf, type RoundOutcome } from './roundOutcome.ts';
import type { CallNext, MiddlewareContext } from './types.ts';

/** One logged round, as data (the line is made from it). */
export interface LogEntry {
  method: string;
  /** The tool or prompt name or the URI; `undefined` for lists. */
  target: string | undefined;
  era: Era;
  /** The flow this round belongs to; `undefined` for lists. */
  flowId: string | undefined;
  round: number | undefined;
  outcome: RoundOutcome;
  /** On an asking round: the keys it asked for. */
  askedKeys: string[];
  /** The keys the client answered on this round (never the answers themselves). */
  answeredKeys: string[];
  /**
   * A thrown error (or, for an `isError` tool result, nothing more than the outcome). An invalid
   * answer's message names the field and the kind of problem, not the answer, unless
   * `logAnswers` is set.
   */
  error?: { name: string; message: string; code?: string };
  durationMs: number;
  /** Only with `logAnswers: true`: the answers this round brought. */
  answers?: Readonly<InputResponses>;
}

/** Options of {@link LoggingMiddleware}. */
export interface LoggingOptions {
  /** Where lines go. Default: stderr, prefixed `[parley] ` (stdout is the stdio transport's). */
  log?: (line: string, entry: LogEntry) => void;
  /**
   * Also log the answers a round brings, and an invalid answer's reason as the person was told
   * it (`got the string "tomorow"`). Default false: answers are what a person typed and may be
   * personal data, so only their keys are logged unless you opt in.
   */
  logAnswers?: boolean;
  /** A monotonic clock for durations, in ms. Default `performance.now`. */
  now?: () => number;
}

const API = 'LoggingMiddleware';

function writeToStderr(line: string): void {
  // eslint-disable-next-line no-console -- stderr is the one stream a stdio server leaves free
  console.error(`[parley] ${line}`);
}

/**
 * The line for an entry, e.g. `tools/call book_flight modern flow=3f2a… round=2
 * input_required[date] 4.1ms`. The order of fields is stable, so lines can be grepped and parsed.
 */
export function formatLogLine(entry: LogEntry): string {
  const flow = entry.flowId === undefined ? '' : ` flow=${entry.flowId} round=${entry.round}`;
  let outcome: string = entry.outcome;
  if (entry.outcome === 'input_required') outcome += `[${entry.askedKeys.join(',')}]`;
  if (entry.error !== undefined) outcome += `[${entry.error.name}: ${entry.error.message}]`;
  const answers = entry.answers === undefined ? '' : ` answers=${JSON.stringify(entry.answers)}`;
  return `${entry.method} ${entry.target ?? '-'} ${entry.era}${flow} ${outcome} ${entry.durationMs.toFixed(1)}ms${answers}`;
}

const OPTION_KEYS = optionKeys<LoggingOptions>()(['log', 'logAnswers', 'now']);

/**
 * One line per round of every request: method, target, era, flow id, round, outcome
 * (`complete`, `input_required` with the asked keys, or `error`) and duration. A three-round
 * call logs three lines sharing one flow id. Answers are not logged unless `logAnswers` is set.
 */
export class LoggingMiddleware extends Middleware {
  readonly #log: (line: string, entry: LogEntry) => void;
  readonly #logAnswers: boolean;
  readonly #now: () => number;

  constructor(options: LoggingOptions = {}) {
    super();
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(`${API}: options must be an object.`);
    }
    checkOptionKeys(API, 'options', options, OPTION_KEYS);
    const { log = writeToStderr, logAnswers = false, now = () => performance.now() } = options;
    if (typeof log !== 'function') throw new TypeError(`${API}: log must be a function.`);
    if (typeof logAnswers !== 'boolean') {
      throw new TypeError(`${API}: logAnswers must be a boolean.`);
    }
    if (typeof now !== 'function') throw new TypeError(`${API}: now must be a function.`);
    this.#log = log;
    this.#logAnswers = logAnswers;
    this.#now = now;
  }

  override async onRequest(
    context: MiddlewareContext,
    callNext: CallNext<unknown>,
  ): Promise<unknown> {
    const started = this.#now();
    try {
      const result = await callNext();
      this.#write(context, started, outcomeOf(result));
      return result;
    } catch (error) {
      this.#write(context, started, { outcome: 'error', askedKeys: [] }, { error });
      throw error;
    }
  }

  #write(
    context: MiddlewareContext,
    started: number,
    { outcome, askedKeys }: { outcome: RoundOutcome; askedKeys: string[] },
    thrown?: { error: unknown },
  ): void {
    const answers = context.inputResponses;
    const entry: LogEntry = {
      method: context.method,
      target: targetOf(context),
      era: context.era,
      flowId: context.flow?.id,
      round: context.flow?.round,
      outcome,
      askedKeys,
      answeredKeys: answers === null ? [] : Object.keys(answers),
      ...(thrown !== undefined ? { error: this.#describe(thrown.error) } : {}),
      durationMs: this.#now() - started,
      ...(this.#logAnswers && answers !== null ? { answers } : {}),
    };
    this.#log(formatLogLine(entry), entry);
  }

  #describe(error: unknown): NonNullable<LogEntry['error']> {
    const described = describeError(error);
    // What may quote the answer, only where answers are logged anyway.
    if (this.#logAnswers && error instanceof InvalidAnswerError) {
      return { ...described, message: error.messageWithAnswer() };
    }
    return described;
  }
}
