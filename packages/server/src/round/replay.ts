import type { InputRequest, InputResponse, InputResponses } from '@parley/core';

import { askDigest, declaredDigest, type AskedRecord } from './asked.ts';
import type { RecordedAnswer, RoundEnvelope } from './envelope.ts';

/**
 * The replay record of one flow written with `ctx.ask`, as one round sees it (modern era, and
 * bridged handshake rounds). The handler re-runs from the top every round; this is what lets
 * `ctx.ask` return at once the answers given on earlier rounds, take this round's answers to
 * what the previous round asked, and say when a question has no answer yet (the round then ends
 * with an ask for it). `ctx.remember` keeps its computed values here too.
 *
 * Everything in it travels sealed in `requestState` (see `envelope.ts`), so a re-run on another
 * replica replays the same answers and values.
 */

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
  /** This round's answers (screened: only keys the previous round asked), or `null`. */
  readonly #fresh: Readonly<InputResponses> | null;
  /** What the previous round asked, so a fresh answer is taken only for the same question. */
  readonly #asked: AskedRecord;
  /** True when `#asked` is the handler's declared asks (a round without state). */
  readonly #declared: boolean;
  readonly #replayed: string[] = [];

  constructor(
    envelope: RoundEnvelope | undefined,
    fresh: Readonly<InputResponses> | null,
    asked: AskedRecord,
  ) {
    this.#answers = { ...envelope?.answers };
    this.#remembered = { ...envelope?.remembered };
    this.#fresh = fresh;
    this.#asked = asked;
    this.#declared = envelope === undefined;
  }

  find(key: string, request: InputRequest): FoundAnswer | undefined {
    const digest = askDigest(request);
    const recorded = Object.hasOwn(this.#answers, key) ? this.#answers[key] : undefined;
    if (recorded !== undefined && recorded.digest === digest) {
      return { answer: recorded.answer, source: 'recorded', digest };
    }
    const answer = this.#fresh !== null && Object.hasOwn(this.#fresh, key) ? this.#fresh[key] : undefined;
    if (answer === undefined) return undefined;
    const entry = this.#asked[key];
    if (entry === undefined) return undefined;
    // An answer to another question under the same key (the handler now asks something else)
    // never answers this one: it is asked again.
    const matches =
      entry.digest === digest || (this.#declared && entry.digest === declaredDigest(request));
    return matches ? { answer, source: 'answered', digest } : undefined;
  }

  record(key: string, found: FoundAnswer): void {
    if (found.source === 'recorded') {
      this.#replayed.push(key);
      return;
    }
    this.#answers[key] = { digest: found.digest, answer: found.answer };
  }

  /** The value `ctx.remember` computed under `key` on an earlier round, if any. */
  recall(key: string): { value: unknown } | undefined {
    if (!Object.hasOwn(this.#remembered, key)) return undefined;
    this.#replayed.push(key);
    return { value: this.#remembered[key] };
  }

  /** Keep a value `ctx.remember` computed (already checked to be JSON). */
  keep(key: string, value: unknown): void {
    this.#remembered[key] = value;
  }

  /** Keys answered from the record on this round so far (asks and remembered values). */
  get replayed(): readonly string[] {
    return this.#replayed;
  }

  /** What the next envelope carries: every answer and value of the flow so far. */
  get answers(): Readonly<Record<string, RecordedAnswer>> {
    return this.#answers;
  }

  get remembered(): Readonly<Record<string, unknown>> {
    return this.#remembered;
  }
}
