import {
  isDismissed,
  type ConfirmPrompt,
  type Dismissed,
  type MultiselectPrompt,
  type Prompter,
  type SelectPrompt,
  type TextPrompt,
} from '../../src/prompter.ts';

/**
 * A person at a keyboard, scripted: each prompt takes the next answer (or `CANCELLED`, as Esc
 * would, or `DECLINED`, as Ctrl-D would). Text prompts run their `validate` like clack does: a refused answer is recorded
 * and the next scripted answer is typed into the same prompt. Everything shown is kept in
 * `screen`, one entry per line drawn, and every prompt in `prompts`.
 */

export type ScriptedAnswer = string | boolean | string[] | Dismissed;

export type SeenPrompt =
  | ({ kind: 'text' } & TextPrompt)
  | ({ kind: 'confirm' } & ConfirmPrompt)
  | ({ kind: 'select' } & SelectPrompt<string>)
  | ({ kind: 'multiselect' } & MultiselectPrompt<string>);

export interface ScriptedPrompter extends Prompter {
  readonly screen: string[];
  readonly prompts: SeenPrompt[];
  /** Answers not used yet. */
  readonly remaining: ScriptedAnswer[];
}

export function scriptedPrompter(
  answers: ScriptedAnswer[],
  { validates = true }: { validates?: boolean } = {},
): ScriptedPrompter {
  const remaining = [...answers];
  const screen: string[] = [];
  const prompts: SeenPrompt[] = [];

  const next = (message: string): ScriptedAnswer => {
    if (remaining.length === 0)
      throw new Error(`The script has no answer left for ${JSON.stringify(message)}.`);
    return remaining.shift()!;
  };
  const expectType = <T>(
    answer: ScriptedAnswer,
    check: (value: unknown) => value is T,
    kind: string,
  ): T | Dismissed => {
    if (isDismissed(answer) || check(answer)) return answer as T | Dismissed;
    throw new Error(`The script answered a ${kind} prompt with ${JSON.stringify(answer)}.`);
  };

  return {
    screen,
    prompts,
    remaining,
    async text(prompt) {
      prompts.push({ kind: 'text', ...prompt });
      screen.push(`? ${prompt.message}`);
      for (;;) {
        const answer = expectType(
          next(prompt.message),
          (v): v is string => typeof v === 'string',
          'text',
        );
        if (isDismissed(answer)) return answer;
        const problem = validates ? prompt.validate?.(answer) : undefined;
        if (problem === undefined) {
          screen.push(`> ${answer}`);
          return answer;
        }
        screen.push(`! ${problem}`);
      }
    },
    async confirm(prompt) {
      prompts.push({ kind: 'confirm', ...prompt });
      screen.push(`? ${prompt.message}`);
      return expectType(
        next(prompt.message),
        (v): v is boolean => typeof v === 'boolean',
        'confirm',
      );
    },
    async select<V extends string>(prompt: SelectPrompt<V>) {
      prompts.push({ kind: 'select', ...(prompt as SelectPrompt<string>) });
      screen.push(`? ${prompt.message}`);
      const answer = expectType(
        next(prompt.message),
        (v): v is string => typeof v === 'string',
        'select',
      );
      if (!isDismissed(answer) && !prompt.options.some((option) => option.value === answer)) {
        throw new Error(
          `The script chose ${JSON.stringify(answer)}, not an option of ${JSON.stringify(prompt.message)}.`,
        );
      }
      return answer as V | Dismissed;
    },
    async multiselect<V extends string>(prompt: MultiselectPrompt<V>) {
      prompts.push({ kind: 'multiselect', ...(prompt as MultiselectPrompt<string>) });
      screen.push(`? ${prompt.message}`);
      const answer = expectType(
        next(prompt.message),
        (v): v is string[] => Array.isArray(v),
        'multiselect',
      );
      return answer as V[] | Dismissed;
    },
    question: (heading, message, hint, route) =>
      void screen.push(
        `question: ${heading}`,
        ...(route !== undefined ? [`  route: ${route}`] : []),
        `  ${message}`,
        `  (${hint})`,
      ),
    step: (message) => void screen.push(`step: ${message}`),
    info: (message) => void screen.push(`info: ${message}`),
    success: (message) => void screen.push(`success: ${message}`),
    warn: (message) => void screen.push(`warn: ${message}`),
    error: (message) => void screen.push(`error: ${message}`),
    note: (message, title) => void screen.push(`note ${title}: ${message}`),
    intro: (title) => void screen.push(`intro: ${title}`),
    outro: (message) => void screen.push(`outro: ${message}`),
  };
}
