import type { InputRequest, InputResponse, InputResponses } from '@parley/core';

import { askDigest, declaredDigest, type AskedRecord } from '../ask/asked.ts';
import { isEmpty } from '../utils/records.ts';

/**
 * The replay record of one flow written with `ctx.ask`, as one modern-era round sees it (on the
 * handshake era `ctx.ask` is a request awaited within one run, and nothing is replayed). The handler re-runs from the top every round; this is what lets
 * `ctx.ask` return at once the answers given on earlier rounds, take this round's answers to
 * what the previous round asked, and say when a question has no answer yet (the round then ends
 * with an ask for it). `ctx.remember` keeps its computed values here too.
 *
 * Everything in it travels sealed in `requestState` (see `round/envelope.ts`), so a re-run on another
 * replica replays the same answers and values.
 */

/** One answer `ctx.ask` was given, kept for the re-runs of its flow. */
export interface RecordedAnswer {
  /** The digest of the question it answered: a changed question is asked again. */
  digest: string;
  /** The answer as the client sent it (read again, typed, on every replay). */
  answer: InputResponse;
}

/** What a flow has recorded so far, as the sealed state carries it between rounds. */
export interface FlowRecord {
  /** The answers `ctx.ask` was given in this flow so far, by key. */
  answers: Readonly<Record<string, RecordedAnswer>>;
  /** The values `ctx.remember` computed in this flow so far, by key (JSON). */
  remembered: Readonly<Record<string, unknown>>;
}

/** Where an answer `ctx.ask` gets comes from. */
export type AnswerSource =
  /** Given on an earlier round of this flow, to this very question, and replayed. */
  | 'recorded'
  /** Given on this round, answering what the previous round asked. */
  | 'answered';

/** An answer found for an ask. */
export interface FoundAnswer {
  answer: InputResponse;
  source: AnswerSource;
  /** The digest of the question it answers. */
  digest: string;
}

/**
 * Where `ctx.ask` looks for an answer before it asks. This is the one place asks are resolved;
 * a policy that answers asks another way (from the tool's arguments, say) plugs in here.
 */
export interface AskResolver {
  /** The answer to `request` under `key`, or `undefined` when it must be asked. */
  find(key: string, request: InputRequest): FoundAnswer | undefined;
  /** Keep an answer that was read successfully, for the next re-runs. */
  record(key: string, found: FoundAnswer): void;
}

export class FlowReplay implements AskResolver {
  readonly #answers: Record<string, RecordedAnswer>;
  readonly #remembered: Record<string, unknown>;
  /** Keys whose answer in `#answers` came on this round (not replayed). */
  readonly #fresh: Set<string> | undefined;
  /** True when the answers came without state, to the handler's declared asks. */
  readonly #declared: boolean;
  readonly #replayed: string[] = [];
  /**
   * The handler used `ctx.ask` or `ctx.remember` in this flow: only then is there a record to
   * carry (a guard-pattern flow's state stays as small as it was).
   */
  #engaged: boolean;

  /**
   * @param record the flow's record, from the state the round came back with; `undefined` on a
   *   round without state (nothing was asked yet).
   * @param fresh this round's answers, screened: only keys the previous round asked, each in
   *   the shape of its kind (or `null` when none came).
   * @param asked what those answers answer (the previous round's record, or the declared asks).
   */
  constructor(
    record: FlowRecord | undefined,
    fresh: Readonly<InputResponses> | null,
    asked: AskedRecord,
  ) {
    // A flow that never used `ctx.ask` or `ctx.remember` (the guard pattern) has nothing to
    // copy: a fresh literal. A record that has keys is copied with `Object.assign`, not a
    // spread: this round's answers are added to the copy, and V8 adds keys to a spread copy
    // through its slow path.
    const recorded = record?.answers;
    const remembered = record?.remembered;
    const hasAnswers = recorded !== undefined && !isEmpty(recorded);
    const hasRemembered = remembered !== undefined && !isEmpty(remembered);
    this.#answers = hasAnswers ? Object.assign({}, recorded) : {};
    this.#remembered = hasRemembered ? Object.assign({}, remembered) : {};
    this.#declared = record === undefined;
    this.#engaged = hasAnswers || hasRemembered;
    // Every answer to what was asked is recorded with the digest of that question, whether or
    // not this run reaches its ask: a run that stops at an earlier question (one that changed)
    // keeps it for the run that gets there.
    let freshKeys: Set<string> | undefined;
    if (fresh !== null) {
      for (const key in fresh) {
        if (!Object.hasOwn(fresh, key)) continue;
        const entry = Object.hasOwn(asked, key) ? asked[key] : undefined;
        if (entry === undefined) continue;
        this.#answers[key] = { digest: entry.digest, answer: fresh[key] as InputResponse };
        (freshKeys ??= new Set()).add(key);
      }
    }
    this.#fresh = freshKeys;
  }

  find(key: string, request: InputRequest): FoundAnswer | undefined {
    this.#engaged = true;
    const recorded = Object.hasOwn(this.#answers, key) ? this.#answers[key] : undefined;
    if (recorded === undefined) return undefined;
    const digest = askDigest(request);
    const fresh = this.#fresh?.has(key) === true;
    // An answer to another question under the same key (the handler now asks something else)
    // never answers this one: it is asked again. A declared bare response type has no message,
    // so an answer given up front to it matches any message with its schema.
    const matches =
      recorded.digest === digest ||
      (fresh && this.#declared && recorded.digest === declaredDigest(request));
    if (!matches) return undefined;
    return { answer: recorded.answer, source: fresh ? 'answered' : 'recorded', digest };
  }

  record(key: string, found: FoundAnswer): void {
    if (found.source === 'recorded') this.#replayed.push(key);
    else this.#answers[key] = { digest: found.digest, answer: found.answer };
  }

  /** The value `ctx.remember` computed under `key` on an earlier round, if any. */
  recall(key: string): { value: unknown } | undefined {
    this.#engaged = true;
    if (!Object.hasOwn(this.#remembered, key)) return undefined;
    this.#replayed.push(key);
    return { value: this.#remembered[key] };
  }

  /** Keep a value `ctx.remember` computed (already checked to be JSON). */
  keep(key: string, value: unknown): void {
    this.#engaged = true;
    this.#remembered[key] = value;
  }

  /** Keys answered from the record on this round so far (asks and remembered values). */
  get replayed(): readonly string[] {
    return this.#replayed;
  }

  /** What the next envelope carries: every answer of the flow so far. */
  get answers(): Readonly<Record<string, RecordedAnswer>> {
    return this.#engaged ? this.#answers : {};
  }

  /** What the next envelope carries: every value `ctx.remember` computed in the flow so far. */
  get remembered(): Readonly<Record<string, unknown>> {
    return this.#remembered;
  }
}
