import {
  InvalidAnswerError,
  UnsupportedCapabilityError,
  clientFeatureOf,
  missingCapabilities,
  type HandlerInfo,
  type InputRequest,
  type InputRequiredResult,
  type InputResponses,
} from '@parley/core';

import { problemOf, reaskRequest, type AnswerProblem } from '../ask/reask.ts';
import { suspensions, type AskSuspension } from '../handler/askSuspension.ts';
import type { Context } from '../handler/context.ts';
import { endedCalls } from '../handler/fallback/answers.ts';
import { unanswerableAsks } from '../handler/fallback/listedArguments.ts';
import type { FlowReplay } from '../handler/flowReplay.ts';
import type { RoundEnvelope } from './envelope.ts';
import { RoundFault } from './errors.ts';
import { hasBudget, type OpenedRound } from './openRound.ts';
import type { RoundRuntime } from './roundRuntime.ts';
import type { RoundTarget } from './targets.ts';
import { urlElicitationAsk } from './urlElicitation.ts';

/**
 * Step 3 of a round, at the end of the middleware chain: the handler, or the re-ask of answers
 * that did not fit. Here `ctx.ask`'s suspension becomes the round's ask, a tool hidden from
 * this client is refused, and a bad answer the handler found itself is asked again.
 */

/**
 * The ask that puts `problems` to the user again, and the envelope it continues with (with what
 * `ctx.ask` and `ctx.remember` recorded on this run, so a re-run after the re-ask replays it).
 */
function reaskOf(
  opened: OpenedRound & { envelope: RoundEnvelope },
  problems: AnswerProblem[],
  replay: FlowReplay,
): { ask: InputRequiredResult; envelope: RoundEnvelope } {
  const { envelope } = opened;
  const inputRequests: Record<string, InputRequest> = {};
  const reasks = { ...envelope.reasks };
  const carried: Record<string, InputResponses[string]> = { ...opened.answers };
  for (const problem of problems) {
    const key = problem.key as string;
    const question = envelope.asked[key]?.question;
    if (question === undefined) continue;
    inputRequests[key] = reaskRequest(question, problem);
    reasks[key] = (reasks[key] ?? 0) + 1;
    delete carried[key];
  }
  return {
    ask: { resultType: 'input_required', inputRequests },
    envelope: {
      ...envelope,
      carried,
      reasks,
      answers: replay.answers,
      remembered: replay.remembered,
    },
  };
}

/**
 * What a run of the handler that threw ends in: the ask `ctx.ask`'s suspension stands for, the
 * call a fallback already ended, or the error (a suspension the handler swallowed becomes an
 * error that says so).
 */
function thrownOutcome(
  target: RoundTarget,
  context: Context,
  error: unknown,
): { outcome: ReturnType<RoundTarget['normalise']> } | { error: unknown } {
  const ended = endedCalls.get(context);
  if (ended !== undefined) return { outcome: ended };
  const suspension = suspensions.get(context);
  if (suspension === undefined) return { error };
  if (error !== suspension) {
    return { error: swallowedSuspension(target.handler, suspension, 'threw', error) };
  }
  return {
    outcome: target.normalise({ resultType: 'input_required', inputRequests: suspension.pending }),
  };
}

/**
 * A tool hidden from this client (`askFallback: 'hide'`) fails before its handler runs, with the
 * error its first ask would have met, so nothing it does before asking happens.
 */
function refuseHidden(target: RoundTarget, context: Context): void {
  const fallback = target.tool?.fallback;
  if (fallback?.policy !== 'hide') return;
  const capabilities = context.requestContext.clientCapabilities;
  const unanswerable = unanswerableAsks(fallback, capabilities, false);
  const missing = missingCapabilities(
    capabilities,
    unanswerable.map((entry) => entry.ask),
  );
  if (missing === undefined) return;
  throw new UnsupportedCapabilityError(
    { feature: clientFeatureOf(missing), requiredCapabilities: missing },
    {
      message: `Tool ${target.handler.name} needs ${clientFeatureOf(missing)}, which this client did not declare (it is not listed to this client).`,
    },
  );
}

/**
 * The end of the middleware chain: the handler, or the re-ask of answers that did not fit. A
 * re-ask made here (not by the handler) keeps the previous round's record and state, in
 * `reask`. (One object, not a closure per step: this runs on every round.)
 */
export class Terminal {
  reask: ReturnType<typeof reaskOf> | undefined;
  readonly #runtime: RoundRuntime;
  readonly #target: RoundTarget;
  readonly #args: unknown;
  readonly #context: Context;
  readonly #opened: OpenedRound;
  readonly #replay: FlowReplay;

  constructor(
    runtime: RoundRuntime,
    target: RoundTarget,
    args: unknown,
    context: Context,
    opened: OpenedRound,
    replay: FlowReplay,
  ) {
    this.#runtime = runtime;
    this.#target = target;
    this.#args = args;
    this.#context = context;
    this.#opened = opened;
    this.#replay = replay;
  }

  #reaskNow(problems: AnswerProblem[]): ReturnType<RoundTarget['normalise']> {
    this.reask = reaskOf(
      this.#opened as OpenedRound & { envelope: RoundEnvelope },
      problems,
      this.#replay,
    );
    return this.#target.normalise(this.reask.ask);
  }

  /**
   * Run the handler, and end the round at the question `ctx.ask` had no answer to: the
   * suspension becomes the round's ask here, inside the middleware chain, so middleware sees an
   * ordinary asking round. A suspension the handler caught and did not rethrow ends the round in
   * an error that says so (never a result built on an answer it does not have, never a hang).
   * (The handler's run and its outcome in one async function: this is every round's path.)
   */
  async run(): Promise<ReturnType<RoundTarget['normalise']>> {
    const opened = this.#opened;
    const target = this.#target;
    const context = this.#context;
    if (opened.reask.length > 0) return this.#reaskNow(opened.reask);
    let result: ReturnType<RoundTarget['normalise']>;
    try {
      refuseHidden(target, context);
      result = await target.run(this.#args, context);
    } catch (error) {
      const thrown = thrownOutcome(target, context, error);
      if ('outcome' in thrown) return thrown.outcome;
      return this.#recover(thrown.error);
    }
    const ended = endedCalls.get(context);
    if (ended !== undefined) return ended;
    const suspension = suspensions.get(context);
    if (suspension !== undefined) throw swallowedSuspension(target.handler, suspension, 'returned');
    return result;
  }

  /** A failed run that is still an ask: URL pages, or a bad answer the handler found itself. */
  #recover(error: unknown): ReturnType<RoundTarget['normalise']> {
    const target = this.#target;
    const opened = this.#opened;
    // `-32042` does not exist on the modern era: the same pages become URL asks.
    const pages = urlElicitationAsk(error, this.#context.era);
    if (pages !== undefined) return target.normalise(pages);
    // A bad answer the handler found itself (a refinement the schema cannot express) and let
    // go is asked again like any other, while the budget lasts.
    const key = error instanceof InvalidAnswerError ? error.data?.key : undefined;
    const envelope = opened.envelope;
    if (
      key !== undefined &&
      envelope !== undefined &&
      Object.hasOwn(opened.answers ?? {}, key) &&
      hasBudget(this.#runtime, target, envelope, key)
    ) {
      return this.#reaskNow([problemOf(key, error as InvalidAnswerError)]);
    }
    throw error;
  }
}

const LABEL: Record<HandlerInfo['kind'], string> = {
  tool: 'Tool',
  prompt: 'Prompt',
  resource: 'Resource',
  resourceTemplate: 'Resource template',
};

/** The error a round ends in when its handler caught the suspension and did not rethrow it. */
export function swallowedSuspension(
  handler: HandlerInfo,
  suspension: AskSuspension,
  outcome: 'returned' | 'threw',
  cause?: unknown,
): RoundFault {
  const keys = suspension.keys.map((key) => `'${key}'`).join(', ');
  return new RoundFault(
    `${LABEL[handler.kind]} '${handler.name}' caught the suspension of ctx.ask(${keys}) and ` +
      `${outcome === 'returned' ? 'returned a result' : 'threw another error'} instead of letting it ` +
      'propagate, so the question was never asked. Rethrow errors you do not handle (a ' +
      'try/catch around ctx.ask must not swallow everything).',
    cause === undefined ? {} : { cause },
  );
}
