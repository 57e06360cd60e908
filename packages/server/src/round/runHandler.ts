import {
  InvalidAnswerError,
  UnsupportedCapabilityError,
  clientFeatureOf,
  handlerLabel,
  missingCapabilities,
  type ClientCapabilities,
  type HandlerInfo,
} from '@parley/core';

import { problemOf, type AnswerProblem } from '../ask/reask.ts';
import type { Flow } from '../flow/flow.ts';
import { RoundFault } from '../flow/roundFault.ts';
import type { AskSuspension } from '../flow/suspension.ts';
import type { Context } from '../handler/context.ts';
import { unanswerableAsks } from '../handler/fallback/listedArguments.ts';
import type { NormalisedResult, RoundTarget } from '../handler/kinds/target.ts';
import { urlElicitationAsk } from './urlElicitation.ts';

/**
 * Step 3 of a round, at the end of the middleware chain: the handler, or the re-ask of answers
 * that did not fit. Here `ctx.ask`'s suspension becomes the round's ask, a tool hidden from
 * this client is refused, and a bad answer the handler found itself is asked again.
 */

/**
 * What a run of the handler that threw ends in: the ask `ctx.ask`'s suspension stands for, the
 * call a fallback already ended, or the error (a suspension the handler swallowed becomes an
 * error that says so).
 */
function thrownOutcome(
  target: RoundTarget,
  flow: Flow,
  error: unknown,
): { outcome: NormalisedResult } | { error: unknown } {
  if (flow.ended !== undefined) return { outcome: flow.ended };
  const suspension = flow.suspension;
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
function refuseHidden(target: RoundTarget, capabilities: ClientCapabilities): void {
  const fallback = target.tool?.fallback;
  if (fallback?.policy !== 'hide') return;
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
 * The end of the middleware chain: the handler, or the re-ask of answers that did not fit (the
 * flow keeps what a re-ask carries). One object, not a closure per step: this runs on every
 * round.
 */
export class Terminal {
  readonly #target: RoundTarget;
  readonly #args: unknown;
  readonly #context: Context;
  readonly #flow: Flow;
  /** What may be asked this round (`AskReach.capabilities`). */
  readonly #askCapabilities: ClientCapabilities;

  constructor(
    target: RoundTarget,
    args: unknown,
    context: Context,
    flow: Flow,
    askCapabilities: ClientCapabilities,
  ) {
    this.#target = target;
    this.#args = args;
    this.#context = context;
    this.#flow = flow;
    this.#askCapabilities = askCapabilities;
  }

  #reask(problems: readonly AnswerProblem[]): NormalisedResult {
    return this.#target.normalise(this.#flow.reask(problems));
  }

  /**
   * Run the handler, and end the round at the question `ctx.ask` had no answer to: the
   * suspension becomes the round's ask here, inside the middleware chain, so middleware sees an
   * ordinary asking round. A suspension the handler caught and did not rethrow ends the round in
   * an error that says so (never a result built on an answer it does not have, never a hang).
   * (The handler's run and its outcome in one async function: this is every round's path.)
   */
  async run(): Promise<NormalisedResult> {
    const flow = this.#flow;
    const target = this.#target;
    if (flow.misfits.length > 0) return this.#reask(flow.misfits);
    let result: NormalisedResult;
    try {
      refuseHidden(target, this.#askCapabilities);
      result = await target.run(this.#args, this.#context);
    } catch (error) {
      const thrown = thrownOutcome(target, flow, error);
      if ('outcome' in thrown) return thrown.outcome;
      return this.#recover(thrown.error);
    }
    if (flow.ended !== undefined) return flow.ended;
    const suspension = flow.suspension;
    if (suspension !== undefined) throw swallowedSuspension(target.handler, suspension, 'returned');
    return result;
  }

  /** A failed run that is still an ask: URL pages, or a bad answer the handler found itself. */
  #recover(error: unknown): NormalisedResult {
    const target = this.#target;
    const flow = this.#flow;
    // `-32042` does not exist on the modern era: the same pages become URL asks.
    const pages = urlElicitationAsk(error, this.#context.era);
    if (pages !== undefined) return target.normalise(pages);
    // A bad answer the handler found itself (a refinement the schema cannot express) and let
    // go is asked again like any other, while the budget lasts.
    const key = error instanceof InvalidAnswerError ? error.data?.key : undefined;
    if (key !== undefined && Object.hasOwn(flow.answers ?? {}, key) && flow.canReask(key)) {
      return this.#reask([problemOf(key, error as InvalidAnswerError)]);
    }
    throw error;
  }
}

/** The error a round ends in when its handler caught the suspension and did not rethrow it. */
export function swallowedSuspension(
  handler: HandlerInfo,
  suspension: AskSuspension,
  outcome: 'returned' | 'threw',
  cause?: unknown,
): RoundFault {
  const keys = suspension.keys.map((key) => `'${key}'`).join(', ');
  return new RoundFault(
    `${handlerLabel(handler)} caught the suspension of ctx.ask(${keys}) and ` +
      `${outcome === 'returned' ? 'returned a result' : 'threw another error'} instead of letting it ` +
      'propagate, so the question was never asked. Rethrow errors you do not handle (a ' +
      'try/catch around ctx.ask must not swallow everything).',
    cause === undefined ? {} : { cause },
  );
}
