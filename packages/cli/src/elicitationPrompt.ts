import {
  InvalidAnswerError,
  type ElicitFormParams,
  type ElicitResult,
  type ElicitUrlParams,
} from '@parley/core';
import type {
  ElicitationHandler,
  FieldDescriptor,
  InputContext,
  ResponseBuilder,
} from '@parley/client';

import { askField, fieldChecker, fieldProblem, type FieldAnswer } from './fieldPrompt.ts';
import { CANCELLED, DECLINED, DISMISS_KEYS, type Dismissed, type Prompter } from './prompter.ts';
import { elicitationRoute } from './routes.ts';

/**
 * An elicitation as terminal prompts: where it comes from and the server's message, a hint line
 * with the keys that decline (Ctrl-D) or cancel (Esc) it, then one prompt per field, the first
 * one open at once. The answer is built with `responseType(values)`, so the schema's defaults
 * fill what was left empty and nothing invalid is ever sent. The same questions are asked for
 * the App route (`appRoute.ts`), where the CLI answers as Parley's App would.
 */

const CANCEL = { action: 'cancel' } as const;
const DECLINE = { action: 'decline' } as const;

function dismissal(reason: Dismissed): ElicitResult {
  return reason === DECLINED ? DECLINE : CANCEL;
}

/** Where the question comes from, for the line above it. */
export function roundLabel(ctx: InputContext): string {
  if (ctx.call === undefined) return 'The server asks';
  return `${ctx.call.name} asks${ctx.round > 0 ? ` (round ${ctx.round})` : ''}`;
}

/** The requests of one round of one call share this, so a cancel can end the whole round. */
function roundKey(ctx: InputContext): string | undefined {
  return ctx.call === undefined || ctx.round === 0
    ? undefined
    : `${ctx.call.method} ${ctx.call.name} ${ctx.round}`;
}

async function answerUrl(
  prompter: Prompter,
  params: ElicitUrlParams,
  signal: AbortSignal,
): Promise<ElicitResult> {
  // Never opened for the person: they read where it goes and open it themselves, or not.
  prompter.note(params.url, 'Open this URL in your browser');
  const agreed = await prompter.confirm({
    message: 'Will you open it?',
    initialValue: true,
    signal,
  });
  if (agreed === CANCELLED || agreed === DECLINED) return dismissal(agreed);
  return agreed ? { action: 'accept' } : DECLINE;
}

async function answerForm(
  prompter: Prompter,
  responseType: ResponseBuilder,
  params: ElicitFormParams,
  signal: AbortSignal,
): Promise<ElicitResult> {
  const { fields } = responseType;
  // Nothing to fill in (an approval): yes accepts, no declines.
  if (fields.length === 0) {
    const agreed = await prompter.confirm({ message: 'Accept?', initialValue: false, signal });
    if (agreed === CANCELLED || agreed === DECLINED) return dismissal(agreed);
    return agreed ? responseType({}) : DECLINE;
  }

  const values: Record<string, FieldAnswer> = {};
  /** The reason the person left the form, or `undefined` when they answered the field. */
  const ask = async (field: FieldDescriptor): Promise<Dismissed | undefined> => {
    const previous = values[field.name];
    const answer = await askField(prompter, field, {
      check: fieldChecker(params.requestedSchema, field),
      ...(previous !== undefined ? { previous } : {}),
      signal,
    });
    if (answer === CANCELLED || answer === DECLINED) return answer;
    values[field.name] = answer;
    return undefined;
  };

  for (const field of fields) {
    const left = await ask(field);
    if (left !== undefined) return dismissal(left);
  }
  // The prompts checked each field already; the builder has the last word (and fills defaults).
  for (;;) {
    try {
      const given = Object.fromEntries(
        Object.entries(values).filter(([, value]) => value !== undefined),
      );
      return responseType(given);
    } catch (error) {
      const refused = error instanceof InvalidAnswerError ? error : undefined;
      const field = fields.find((candidate) => candidate.name === refused?.data?.field);
      if (refused === undefined || field === undefined) throw error;
      // Shown to the person typing, so it may quote what they typed.
      prompter.error(fieldProblem(field, refused.reasonWithAnswer()));
      const left = await ask(field);
      if (left !== undefined) return dismissal(left);
    }
  }
}

/** Where a question comes from, and which way it reached the person. */
export interface QuestionPlace {
  /** The line above it (`book_flight asks (round 1)`). */
  heading: string;
  /** The route it took (`routes.ts`). */
  route: string;
  /** Shared by the questions of one round, so a cancel ends them all; none outside a call. */
  round: string | undefined;
  /** Aborted when the call is over. */
  signal: AbortSignal;
}

/** Asks one form or URL question in the terminal; resolves to the answer to send. */
export type QuestionAsker = (
  params: ElicitFormParams | ElicitUrlParams,
  responseType: ResponseBuilder,
  place: QuestionPlace,
) => Promise<ElicitResult>;

/**
 * Questions as terminal prompts. `queue` makes questions that arrive together wait their turn
 * (see `oneAtATime`).
 */
export function createQuestionAsker(
  prompter: Prompter,
  queue: <T>(task: () => Promise<T>) => Promise<T>,
): QuestionAsker {
  let cancelledRound: string | undefined;
  return (params, responseType, place) =>
    queue(async () => {
      const { round, signal } = place;
      // The call is already over (another request of its round failed): nothing to ask.
      if (signal.aborted) return CANCEL;
      if (round !== undefined && round === cancelledRound) {
        prompter.info(`Cancelled with the rest of the round: ${params.message}`);
        return CANCEL;
      }
      prompter.question(place.heading, params.message, DISMISS_KEYS, place.route);
      const answer =
        params.mode === 'url'
          ? await answerUrl(prompter, params, signal)
          : await answerForm(prompter, responseType, params, signal);
      if (answer.action === 'cancel') {
        cancelledRound = round;
        prompter.warn('Cancelled.');
      } else if (answer.action === 'decline') {
        prompter.warn('Declined.');
      }
      return answer;
    });
}

/** The CLI's `elicitationHandler`: each question says the route it took. */
export function createElicitationHandler(
  prompter: Prompter,
  queue: <T>(task: () => Promise<T>) => Promise<T>,
): ElicitationHandler {
  const ask = createQuestionAsker(prompter, queue);
  return (_message, responseType, params, ctx) =>
    ask(params, responseType, {
      heading: roundLabel(ctx),
      route: elicitationRoute(params),
      round: roundKey(ctx),
      signal: ctx.signal,
    });
}
