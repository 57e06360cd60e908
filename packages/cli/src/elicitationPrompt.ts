import { InvalidAnswerError, type ElicitFormParams, type ElicitUrlParams } from '@parley/core';
import type { FieldDescriptor, ResponseBuilder } from '@parley/schema';

import type { ElicitationAnswer, ElicitationHandler, InputContext } from '@parley/client';
import { askField, fieldChecker, fieldProblem, type FieldAnswer } from './fieldPrompt.ts';
import { CANCELLED, type Prompter } from './prompter.ts';

/**
 * An elicitation as terminal prompts: the server's message, a choice to answer, decline or
 * cancel, then one prompt per field. The answer is built with `responseType(values)`, so the
 * schema's defaults fill what was left empty and nothing invalid is ever sent.
 */

type Action = 'accept' | 'decline' | 'cancel';

const CANCEL = { action: 'cancel' } as const;

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

async function chooseAction(
  prompter: Prompter,
  message: string,
  accept: string,
  signal: AbortSignal,
): Promise<Action> {
  const choice = await prompter.select<Action>({
    message,
    options: [
      { value: 'accept', label: accept },
      { value: 'decline', label: 'Decline', hint: 'say no; the server carries on without it' },
      { value: 'cancel', label: 'Cancel', hint: 'dismiss the question' },
    ],
    initialValue: 'accept',
    signal,
  });
  return choice === CANCELLED ? 'cancel' : choice;
}

async function answerUrl(
  prompter: Prompter,
  message: string,
  params: ElicitUrlParams,
  signal: AbortSignal,
): Promise<ElicitationAnswer> {
  // Never opened for the person: they read where it goes and open it themselves, or not.
  prompter.note(params.url, 'The server asks you to open this URL in your browser');
  const action = await chooseAction(prompter, message, 'Accept — I will open it', signal);
  return action === 'accept' ? { action: 'accept' } : { action };
}

async function answerForm(
  prompter: Prompter,
  message: string,
  responseType: ResponseBuilder,
  params: ElicitFormParams,
  signal: AbortSignal,
): Promise<ElicitationAnswer> {
  const { fields } = responseType;
  const action = await chooseAction(
    prompter,
    message,
    fields.length === 0 ? 'Accept' : 'Answer',
    signal,
  );
  if (action !== 'accept') return { action };

  const values: Record<string, FieldAnswer> = {};
  /** False when the person cancelled. */
  const ask = async (field: FieldDescriptor): Promise<boolean> => {
    const previous = values[field.name];
    const answer = await askField(prompter, field, {
      check: fieldChecker(params.requestedSchema, field),
      ...(previous !== undefined ? { previous } : {}),
      signal,
    });
    if (answer === CANCELLED) return false;
    values[field.name] = answer;
    return true;
  };

  for (const field of fields) {
    if (!(await ask(field))) return CANCEL;
  }
  // The prompts checked each field already; the builder has the last word (and fills defaults).
  for (;;) {
    try {
      const given = Object.fromEntries(
        Object.entries(values).filter(([, value]) => value !== undefined),
      );
      return responseType(given);
    } catch (error) {
      const data = error instanceof InvalidAnswerError ? error.data : undefined;
      const field = fields.find((candidate) => candidate.name === data?.field);
      if (data === undefined || field === undefined) throw error;
      prompter.error(fieldProblem(field, data.reason));
      if (!(await ask(field))) return CANCEL;
    }
  }
}

/**
 * The CLI's `elicitationHandler`. `queue` makes requests that arrive together wait their turn
 * (see `oneAtATime`).
 */
export function createElicitationHandler(
  prompter: Prompter,
  queue: <T>(task: () => Promise<T>) => Promise<T>,
): ElicitationHandler {
  let cancelledRound: string | undefined;
  return (message, responseType, params, ctx) =>
    queue(async () => {
      const round = roundKey(ctx);
      // The call is already over (another request of its round failed): nothing to ask.
      if (ctx.signal.aborted) return CANCEL;
      if (round !== undefined && round === cancelledRound) {
        prompter.info(`Cancelled with the rest of the round: ${message}`);
        return CANCEL;
      }
      prompter.step(roundLabel(ctx));
      const answer =
        params.mode === 'url'
          ? await answerUrl(prompter, message, params, ctx.signal)
          : await answerForm(prompter, message, responseType, params, ctx.signal);
      if (isAction(answer, 'cancel')) {
        cancelledRound = round;
        prompter.warn('Cancelled.');
      } else if (isAction(answer, 'decline')) {
        prompter.warn('Declined.');
      }
      return answer;
    });
}

function isAction(answer: ElicitationAnswer, action: Action): boolean {
  return (
    typeof answer === 'object' &&
    answer !== null &&
    !Array.isArray(answer) &&
    answer.action === action
  );
}
