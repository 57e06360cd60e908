import type {
  Flow as FlowIdentity,
  InputRequest,
  InputRequests,
  InputRequiredResult,
  InputResponse,
  InputResponses,
  ToolResult,
} from '@parley/core';
import type { BoundRequest, RequestBinding, RequestStateSealer } from '@parley/state-sealing';

import { readAnswer } from '../ask/answers.ts';
import { askDigest, declaredDigest, recordAsks, type AskedRecord } from '../ask/asked.ts';
import { checkAskKey } from '../ask/builders.ts';
import { reaskRequest, type AnswerProblem } from '../ask/reask.ts';
import { checkJson } from '../utils/json.ts';
import { isEmpty } from '../utils/records.ts';
import type { FlowEnvelope, RecordedAnswer } from './envelope.ts';
import { authorStateOf, sealAsk } from './seal.ts';
import type { TokenUse } from './singleUse.ts';
import { AskSuspension, CallEnded } from './suspension.ts';

/**
 * One flow, as one round sees it: every round of a logical call (a tool, a prompt, a resource
 * read that asks) shares the flow's identity, and the sealed `requestState` carries the rest from
 * round to round. This object owns all of it for the round at hand:
 *
 * - what the round came back with: the opened envelope, what the previous round asked, the
 *   client's answers screened against it (with any carried over), the ones that did not fit;
 * - the replay record of `ctx.ask` and `ctx.remember` (the modern era runs the handler again from
 *   the top each round, and asks answered before return at once);
 * - how the handler's run ended early: at a question with no answer yet (`suspension`), or by the
 *   tool's fallback (`ended`);
 * - the next envelope (`next`) and its sealing (`seal`), built in one place for a new ask and for
 *   a re-ask alike.
 *
 * On the handshake era a flow has one round and nothing is replayed: `ctx.ask` pushes instead.
 * `openFlow` (`open.ts`) makes one per round.
 */

/**
 * Values of `ctx.remember` kept outside the sealed state: by a handshake-era call whose record
 * another replica may take over (the call then runs again there, and replays them).
 */
export interface KeptValues {
  has(key: string): boolean;
  get(key: string): unknown;
  /** Keep `value` (plain JSON) before the handler goes on. */
  keep(key: string, value: unknown): Promise<void>;
}

/** Asks, by key, as `ctx.askAll` takes them (in order). */
export type KeyedAsks = readonly (readonly [string, InputRequest])[];

/** What telemetry seals into the next round, while it records. */
export interface SealedTrace {
  /** The `traceparent` of the round that asks. */
  trace?: string | undefined;
  /** When the ask left (ms since the epoch). */
  askedAt?: number | undefined;
}

/** What `openFlow` knows once the state is open and the answers screened. */
export interface FlowInit {
  identity: FlowIdentity;
  envelope: FlowEnvelope | undefined;
  asked: AskedRecord;
  answers: Readonly<InputResponses> | null;
  misfits: readonly AnswerProblem[];
  maxReasks: number;
  use: TokenUse | undefined;
  sealer: RequestStateSealer;
  binding: RequestBinding | BoundRequest;
}

/** An answer found for an ask: given on an earlier round and replayed, or given on this one. */
interface FoundAnswer {
  answer: InputResponse;
  source: 'recorded' | 'answered';
  /** The digest of the question it answers. */
  digest: string;
}

/**
 * A promise rejected with `error` a microtask from now, once the caller has awaited it. The
 * suspension that ends an asking round is a rejection on every such round; a promise rejected
 * before anyone listens goes through Node's unhandled-rejection bookkeeping first, which cost
 * more than the rest of the suspension.
 */
export function rejectOnceAwaited<T>(error: unknown): Promise<T> {
  return new Promise<T>((_resolve, reject) => queueMicrotask(() => reject(error)));
}

/** True while `key`, a form the envelope's round asked, is within its budget of re-asks. */
export function mayReask(envelope: FlowEnvelope, key: string, maxReasks: number): boolean {
  return (envelope.reasks[key] ?? 0) < maxReasks && envelope.asked[key]?.question !== undefined;
}

export class Flow {
  /** The flow's id, this round's number and when the flow started: `ctx.flow`. */
  readonly identity: FlowIdentity;
  /** The envelope the round came back with; `undefined` on a round without state. */
  readonly envelope: FlowEnvelope | undefined;
  /** What this round may accept answers to. */
  readonly asked: AskedRecord;
  /** The screened answers (with any carried over), or `null` when the client sent none. */
  readonly answers: Readonly<InputResponses> | null;
  /** Answers that did not fit and are asked again before the handler runs. */
  readonly misfits: readonly AnswerProblem[];
  /** The round's claim on its token, under single use. */
  readonly use: TokenUse | undefined;
  /** The question(s) this run ended at, once `ctx.ask` found no answer. */
  suspension: AskSuspension | undefined;
  /** The result the tool's fallback ended the call with. */
  ended: ToolResult | undefined;
  readonly #init: FlowInit;
  readonly #recorded: Record<string, RecordedAnswer>;
  readonly #remembered: Record<string, unknown>;
  /** Keys whose answer in `#recorded` came on this round (not replayed). */
  readonly #fresh: Set<string> | undefined;
  readonly #replayed: string[] = [];
  /**
   * The handler used `ctx.ask` or `ctx.remember` in this flow: only then is there a record to
   * carry (a guard-pattern flow's state stays as small as it was).
   */
  #engaged: boolean;
  /** The re-ask this round made, with what it carries: the next envelope keeps the old record. */
  #reasked:
    | { ask: InputRequiredResult; carried: InputResponses; reasks: Record<string, number> }
    | undefined;

  constructor(init: FlowInit) {
    this.#init = init;
    this.identity = init.identity;
    this.envelope = init.envelope;
    this.asked = init.asked;
    this.answers = init.answers;
    this.misfits = init.misfits;
    this.use = init.use;
    this.suspension = undefined;
    this.ended = undefined;
    this.#reasked = undefined;
    // A flow that never used `ctx.ask` or `ctx.remember` (the guard pattern) has nothing to
    // copy: a fresh literal. A record that has keys is copied with `Object.assign`, not a
    // spread: this round's answers are added to the copy, and V8 adds keys to a spread copy
    // through its slow path.
    const recorded = init.envelope?.answers;
    const remembered = init.envelope?.remembered;
    const hasAnswers = recorded !== undefined && !isEmpty(recorded);
    const hasRemembered = remembered !== undefined && !isEmpty(remembered);
    this.#recorded = hasAnswers ? Object.assign({}, recorded) : {};
    this.#remembered = hasRemembered ? Object.assign({}, remembered) : {};
    this.#engaged = hasAnswers || hasRemembered;
    // Every answer to what was asked is recorded with the digest of that question, whether or
    // not this run reaches its ask: a run that stops at an earlier question (one that changed)
    // keeps it for the run that gets there.
    let fresh: Set<string> | undefined;
    const { answers, asked } = init;
    if (answers !== null) {
      for (const key in answers) {
        if (!Object.hasOwn(answers, key)) continue;
        const entry = Object.hasOwn(asked, key) ? asked[key] : undefined;
        if (entry === undefined) continue;
        this.#recorded[key] = { digest: entry.digest, answer: answers[key] as InputResponse };
        (fresh ??= new Set()).add(key);
      }
    }
    this.#fresh = fresh;
  }

  /** The author's `requestState` the round came back with (verified), or `null`. */
  get requestState(): string | null {
    return this.envelope?.requestState ?? null;
  }

  /** True on every round after the first (answers or state came back). */
  get isContinuation(): boolean {
    return this.answers !== null || this.envelope?.requestState != null;
  }

  /** Keys answered from the record on this run so far (asks and remembered values). */
  get replayed(): readonly string[] {
    return this.#replayed;
  }

  /**
   * `ctx.ask` of one ask the client can answer: its answer from the record, or a rejection with
   * the suspension that ends the run asking it (also when another branch of this run, a
   * `Promise.all`, say, already ended it).
   */
  ask(key: string, request: InputRequest): Promise<unknown> {
    const found = this.#find(key, request);
    if (found === undefined) return rejectOnceAwaited(this.#suspend(key, request));
    const answer = readAnswer(request, found.answer, key);
    this.#record(key, found);
    return this.suspension === undefined
      ? Promise.resolve(answer)
      : rejectOnceAwaited(this.suspension);
  }

  /**
   * Several asks: the answers the record has, the fallback's answers to what this client cannot
   * answer, and, when any answerable ask has no answer yet, the end of the run asking them all.
   */
  async askAll(
    asks: Readonly<Record<string, InputRequest>>,
    canAnswer: (ask: InputRequest) => boolean,
    fallback: (asks: KeyedAsks) => Promise<Record<string, unknown>>,
  ): Promise<Record<string, unknown>> {
    const answers: Record<string, unknown> = {};
    const missing: [string, InputRequest][] = [];
    let unanswerable: [string, InputRequest][] | undefined;
    for (const key of Object.keys(asks)) {
      const ask = asks[key]!;
      const found = this.#find(key, ask);
      if (found !== undefined) {
        answers[key] = readAnswer(ask, found.answer, key);
        this.#record(key, found);
      } else if (canAnswer(ask)) missing.push([key, ask]);
      else (unanswerable ??= []).push([key, ask]);
    }
    // What this client cannot answer goes to the tool's fallback (the arguments it was called
    // with, say), every run: never recorded, since the same arguments come with every round.
    if (unanswerable !== undefined) Object.assign(answers, await fallback(unanswerable));
    if (missing.length > 0 || this.suspension !== undefined) {
      let suspension = this.suspension;
      for (const [key, ask] of missing) suspension = this.#suspend(key, ask);
      throw suspension;
    }
    return answers;
  }

  /**
   * `ctx.remember(key, fn)`: the value `fn` computed on an earlier round of the flow, from the
   * record; else `fn`'s value now, as JSON would carry it, kept for the rounds after. `replays`
   * is false where the handler runs once (pushing eras): the value is then just computed, and
   * kept in `kept` when the call has a record another replica may take over.
   */
  async remember<T>(
    key: string,
    fn: () => T | Promise<T>,
    replays: boolean,
    kept?: KeptValues,
  ): Promise<T> {
    checkAskKey('ctx.remember()', key);
    if (typeof fn !== 'function') {
      throw new TypeError(`ctx.remember('${key}'): give a function that computes the value.`);
    }
    if (kept?.has(key) === true) {
      this.#replayed.push(key);
      return kept.get(key) as T;
    }
    if (replays) {
      this.#engaged = true;
      if (Object.hasOwn(this.#remembered, key)) {
        this.#replayed.push(key);
        return this.#remembered[key] as T;
      }
    }
    const value = await fn();
    checkJson(`ctx.remember('${key}')`, value);
    const copy = value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as T);
    if (replays) this.#remembered[key] = copy;
    await kept?.keep(key, copy);
    return copy as T;
  }

  /** End the call with `result` (a tool's fallback): kept, so a handler that catches it still ends. */
  end(result: ToolResult): never {
    this.ended = result;
    throw new CallEnded(result);
  }

  /** True while `key`, answered on this round to a form, may be asked again after a bad answer. */
  canReask(key: string): boolean {
    return this.envelope !== undefined && mayReask(this.envelope, key, this.#init.maxReasks);
  }

  /**
   * The ask that puts `problems` to the user again. The next envelope keeps the previous round's
   * record and state, the good answers of this round (carried) and the re-ask counts.
   */
  reask(problems: readonly AnswerProblem[]): InputRequiredResult {
    const envelope = this.envelope!;
    const inputRequests: InputRequests = {};
    const reasks = { ...envelope.reasks };
    const carried: InputResponses = { ...this.answers };
    for (const problem of problems) {
      const key = problem.key as string;
      const question = envelope.asked[key]?.question;
      if (question === undefined) continue;
      inputRequests[key] = reaskRequest(question, problem);
      reasks[key] = (reasks[key] ?? 0) + 1;
      delete carried[key];
    }
    const ask: InputRequiredResult = { resultType: 'input_required', inputRequests };
    this.#reasked = { ask, carried, reasks };
    return ask;
  }

  /**
   * The envelope the round's ask carries to the next round: the flow's identity, what `kept`
   * asks (or, for this round's own re-ask, what the previous round asked), the author's state,
   * and the flow's record. The one place an envelope is built.
   */
  next(
    ask: InputRequiredResult,
    kept: InputRequests,
    sealed: SealedTrace | undefined,
  ): FlowEnvelope {
    const { identity, envelope } = this;
    const reasked = this.#reasked;
    const isReask =
      reasked !== undefined &&
      envelope !== undefined &&
      ask.inputRequests === reasked.ask.inputRequests;
    return {
      flowId: identity.id,
      round: identity.round,
      startedAt: identity.startedAt,
      requestState: isReask ? envelope.requestState : authorStateOf(ask),
      asked: isReask ? envelope.asked : recordAsks(kept),
      carried: isReask ? reasked.carried : {},
      reasks: isReask ? reasked.reasks : {},
      answers: this.#engaged ? this.#recorded : {},
      remembered: this.#remembered,
      trace: sealed?.trace,
      askedAt: sealed?.askedAt,
    };
  }

  /**
   * The ask as the wire carries it: `sent` (what the client can answer, in its version's
   * vocabulary; `undefined` when nothing is left to ask) and the next envelope, sealed. At once
   * where the sealer answers at once, else a promise.
   */
  seal(
    ask: InputRequiredResult,
    kept: InputRequests,
    sent: InputRequests | undefined,
    sealed: SealedTrace | undefined,
  ): InputRequiredResult | Promise<InputRequiredResult> {
    const { sealer, binding } = this.#init;
    return sealAsk(this.next(ask, kept, sealed), ask, sent, sealer, binding);
  }

  #find(key: string, request: InputRequest): FoundAnswer | undefined {
    this.#engaged = true;
    const recorded = Object.hasOwn(this.#recorded, key) ? this.#recorded[key] : undefined;
    if (recorded === undefined) return undefined;
    const digest = askDigest(request);
    const fresh = this.#fresh?.has(key) === true;
    // An answer to another question under the same key (the handler now asks something else)
    // never answers this one: it is asked again. A declared bare response type has no message,
    // so an answer given up front (a round without state) to it matches any message with its
    // schema.
    const matches =
      recorded.digest === digest ||
      (fresh && this.envelope === undefined && recorded.digest === declaredDigest(request));
    if (!matches) return undefined;
    return { answer: recorded.answer, source: fresh ? 'answered' : 'recorded', digest };
  }

  #record(key: string, found: FoundAnswer): void {
    if (found.source === 'recorded') this.#replayed.push(key);
    else this.#recorded[key] = { digest: found.digest, answer: found.answer };
  }

  /** Add a question to the suspension that ends this run (made by the first). */
  #suspend(key: string, request: InputRequest): AskSuspension {
    const suspension = (this.suspension ??= new AskSuspension());
    suspension.add(key, request);
    return suspension;
  }
}
