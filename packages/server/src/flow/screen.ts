import type { InputResponses } from '@parley/core';

import { screenAnswers, type AskedRecord } from '../ask/asked.ts';
import { adaptFields } from '../ask/fieldAdaptation.ts';
import type { FieldKind } from '../ask/hostProfiles.ts';
import { answerProblem, type AnswerProblem } from '../ask/reask.ts';
import { newFlowId, type FlowEnvelope } from './envelope.ts';
import { Flow, mayReask } from './flow.ts';
import type { FlowRequest, FlowSite } from './flowRuntime.ts';
import type { ReplayedOutcome, TokenUse } from './singleUse.ts';

/**
 * Answers to forms adapted for a host that cannot draw some fields, read back into the forms as
 * written (in place), so they are checked, and replayed, as answers to what the handler asked.
 */
function readBack(
  answers: Record<string, InputResponses[string]>,
  asked: AskedRecord,
  kinds: readonly FieldKind[],
): void {
  const adaptable = new Set(kinds);
  for (const key in answers) {
    const question = asked[key]?.question;
    if (question === undefined) continue;
    answers[key] = adaptFields(question.requestedSchema, adaptable).restore(
      answers[key],
    ) as InputResponses[string];
  }
}

/** An opened state, and the round's claim on its token (under single use). */
export interface OpenedState {
  envelope: FlowEnvelope;
  use?: TokenUse | undefined;
}

/**
 * The last step of opening a flow: what the round may accept (the previous round's asks, or
 * without state the handler's declared ones), the answers kept against it (with any carried
 * over from a re-ask) and checked against their questions, and the flow they make. Answers that
 * do not fit are asked again while the budget lasts; given up front without state, they count
 * as not given (the handler asks for them).
 */
export function screenFlow(
  site: FlowSite,
  req: FlowRequest,
  raw: Readonly<Record<string, unknown>> | undefined,
  opening: OpenedState | ReplayedOutcome | Promise<OpenedState | ReplayedOutcome> | undefined,
): Flow | ReplayedOutcome | Promise<Flow | ReplayedOutcome> {
  if (opening instanceof Promise) {
    return opening.then((opened) => screenFlow(site, req, raw, opened) as Flow | ReplayedOutcome);
  }
  if (opening !== undefined && 'replay' in opening) return opening;
  const state = opening;
  const { runtime, target } = site;
  const envelope = state?.envelope;
  const identity =
    envelope !== undefined
      ? { id: envelope.flowId, round: envelope.round + 1, startedAt: envelope.startedAt }
      : { id: newFlowId(), round: raw === undefined ? 1 : 2, startedAt: runtime.now() };
  const asked = envelope?.asked ?? target.declaredAsks;
  let answers: Record<string, InputResponses[string]> | null = null;
  let misfits: AnswerProblem[] = [];
  if (raw !== undefined) {
    const { kept, dropped } = screenAnswers(raw, asked);
    if (runtime.cannotRender !== undefined && runtime.cannotRender.length > 0) {
      readBack(kept, asked, runtime.cannotRender);
    }
    const { handler } = target;
    for (const key of dropped) {
      runtime.warn(
        `${handler.kind === 'tool' ? 'Tool' : 'Handler'} '${handler.name}': ignored an answer under '${key}', which ${envelope !== undefined ? 'the previous round did not ask' : 'no round of this flow asked'}.`,
        { handler, key },
      );
    }
    req.trace?.answered(kept, envelope?.askedAt, runtime.now());
    const carried = envelope?.carried;
    // `kept` is this round's own record; answers carried over from a re-ask join it.
    answers =
      carried === undefined || Object.keys(carried).length === 0 ? kept : { ...carried, ...kept };
    const problems: AnswerProblem[] = [];
    for (const key in kept) {
      const entry = asked[key];
      if (entry?.question === undefined) continue;
      const problem = answerProblem(key, kept[key]!, entry.question, entry.digest);
      if (problem !== undefined) problems.push(problem);
    }
    if (problems.length > 0) {
      if (envelope === undefined) {
        for (const problem of problems) delete answers[problem.key as string];
      } else if (
        problems.every((problem) => mayReask(envelope, problem.key as string, site.maxReasks))
      ) {
        misfits = problems;
        req.trace?.reasked(problems.length);
      }
    }
    Object.freeze(answers);
  }
  return new Flow({
    identity,
    envelope,
    asked,
    answers,
    misfits,
    maxReasks: site.maxReasks,
    use: state?.use,
    sealer: runtime.sealer,
    binding: site.binding,
  });
}
