import {
  InvalidInputResponsesError,
  InvalidRequestStateError,
  type Flow,
  type InputResponses,
} from '@parley/core';
import type { BoundRequest, RequestBinding } from '@parley/state-sealing';

import { screenAnswers, type AskedRecord } from '../ask/asked.ts';
import { answerProblem, type AnswerProblem } from '../ask/reask.ts';
import { isEmpty } from '../utils/records.ts';
import { newFlowId, openEnvelope, type OpenedEnvelope, type RoundEnvelope } from './envelope.ts';
import type { RoundRequest } from './request.ts';
import type { RoundRuntime } from './roundRuntime.ts';
import { useToken, type TokenUse } from './singleUse.ts';
import type { RoundTarget } from './targets.ts';

/**
 * Step 2 of a round (see `serveRound.ts`): before the handler runs, check that
 * `inputResponses` is an object, open and verify the sealed state, claim its token (single
 * use), keep only answers to what was asked, and check each against its question.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** What an opened round knows before its handler runs. */
export interface OpenedRound {
  flow: Flow;
  /** The envelope the round came back with; `undefined` on a round without state. */
  envelope: RoundEnvelope | undefined;
  /** What this round may accept answers to. */
  asked: AskedRecord;
  /** The screened answers (with any carried over), or `null` when the client sent none. */
  answers: InputResponses | null;
  /** Answers that did not fit and are asked again before the handler runs. */
  reask: AnswerProblem[];
  use: TokenUse | undefined;
}

export function reaskBudget(runtime: RoundRuntime, target: RoundTarget): number {
  return target.options.maxReasks ?? runtime.maxReasks;
}

export function hasBudget(
  runtime: RoundRuntime,
  target: RoundTarget,
  envelope: RoundEnvelope,
  key: string,
): boolean {
  return (
    (envelope.reasks[key] ?? 0) < reaskBudget(runtime, target) &&
    envelope.asked[key]?.question !== undefined
  );
}

/**
 * Check the answers' shape, open the state, claim the token, and screen the answers: at once
 * when opening answers at once (node:crypto, no single use), else a promise. Throws what the
 * promise would reject with.
 */
export function openRound(
  runtime: RoundRuntime,
  req: RoundRequest,
  target: RoundTarget,
  binding: RequestBinding | BoundRequest,
): OpenedRound | { replay: unknown } | Promise<OpenedRound | { replay: unknown }> {
  const raw = req.inputResponses;
  if (raw !== undefined && !isRecord(raw)) {
    throw new InvalidInputResponsesError({
      reason: `inputResponses must be an object of answers by key, got ${describe(raw)}`,
    });
  }
  if (req.requestState === undefined) return screenRound(runtime, req, target, raw, undefined);
  if (typeof req.requestState !== 'string') {
    throw new InvalidRequestStateError({ reason: 'not-a-string' });
  }
  const opened = openEnvelope(
    runtime.sealer,
    req.requestState,
    binding,
    runtime.singleUse !== undefined,
  );
  return opened instanceof Promise
    ? opened.then((envelope) => claimToken(runtime, req, target, raw, envelope))
    : claimToken(runtime, req, target, raw, opened);
}

/** Single use: the opened token claimed (or its first outcome replayed) before anything runs. */
function claimToken(
  runtime: RoundRuntime,
  req: RoundRequest,
  target: RoundTarget,
  raw: Record<string, unknown> | undefined,
  opened: OpenedEnvelope,
): OpenedRound | { replay: unknown } | Promise<OpenedRound | { replay: unknown }> {
  const singleUse = runtime.singleUse;
  const { envelope, token } = opened;
  if (singleUse === undefined || token === undefined) {
    return screenRound(runtime, req, target, raw, envelope);
  }
  return useToken(singleUse, token.id, token.expiresAt, req.signal).then((use) => {
    if (use.kind === 'replay') return { replay: use.outcome };
    if (use.kind === 'refuse') {
      req.trace?.refusedReplay();
      throw new InvalidRequestStateError({ reason: 'replayed' });
    }
    return screenRound(runtime, req, target, raw, envelope, use);
  });
}

/** What the round may accept, and the answers screened against it. */
function screenRound(
  runtime: RoundRuntime,
  req: RoundRequest,
  target: RoundTarget,
  raw: Record<string, unknown> | undefined,
  envelope: RoundEnvelope | undefined,
  use?: TokenUse,
): OpenedRound {
  const flow: Flow =
    envelope !== undefined
      ? { id: envelope.flowId, round: envelope.round + 1, startedAt: envelope.startedAt }
      : { id: newFlowId(), round: raw === undefined ? 1 : 2, startedAt: runtime.now() };
  // Without state nothing was asked in this flow: only the asks the handler declared may be
  // answered up front.
  const asked = envelope?.asked ?? target.declaredAsks;
  if (raw === undefined) {
    return { flow, envelope, asked, answers: null, reask: [], use };
  }
  const { kept, dropped } = screenAnswers(raw, asked);
  for (const key of dropped) {
    runtime.warn(
      `${target.handler.kind === 'tool' ? 'Tool' : 'Handler'} '${target.handler.name}': ignored an answer under '${key}', which ${envelope === undefined ? 'no round of this flow asked' : 'the previous round did not ask'}.`,
      { handler: target.handler, key },
    );
  }
  req.trace?.answered(kept, envelope?.askedAt, runtime.now());
  // `kept` is this round's own record; answers carried over from a re-ask join it.
  const carried = envelope?.carried;
  const answers: Record<string, InputResponses[string]> =
    carried === undefined || isEmpty(carried) ? kept : { ...carried, ...kept };
  const problems: AnswerProblem[] = [];
  for (const key in kept) {
    const entry = asked[key];
    if (entry?.question === undefined) continue;
    const problem = answerProblem(key, kept[key]!, entry.question, entry.digest);
    if (problem !== undefined) problems.push(problem);
  }
  let reask: AnswerProblem[] = [];
  if (problems.length > 0) {
    if (envelope === undefined) {
      // A bad answer given up front is as good as none: the handler asks for it.
      for (const problem of problems) delete answers[problem.key as string];
    } else if (
      problems.every((problem) => hasBudget(runtime, target, envelope, problem.key as string))
    ) {
      reask = problems;
      req.trace?.reasked(problems.length);
    }
  }
  return { flow, envelope, asked, answers: Object.freeze(answers), reask, use };
}
