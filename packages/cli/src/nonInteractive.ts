import type { Prompter } from './prompter.ts';

/**
 * For runs without a terminal on stdin (a pipe, a CI job): the lines are still printed, but a
 * question fails the call at once with a reason, instead of waiting for keys that never come.
 */
export function nonInteractive(prompter: Prompter): Prompter {
  const refuse = (): never => {
    throw new Error(
      'The server asked a question, but stdin is not a terminal, so nobody can answer it.',
    );
  };
  return {
    ...prompter,
    text: async () => refuse(),
    confirm: async () => refuse(),
    select: async () => refuse(),
    multiselect: async () => refuse(),
  };
}
