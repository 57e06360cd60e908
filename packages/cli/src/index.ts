/**
 * The public API of @parley/cli: the `parley` command as a function, for embedding it or driving
 * it with another prompt library. Everything exported here is public and versioned: add to it
 * deliberately, with a changeset.
 */

export { runCli } from './runCli.ts';
export type { CliIo } from './runCli.ts';
export { clackPrompter } from './clackPrompter.ts';
export type { ClackStreams } from './clackPrompter.ts';
export { CANCELLED, DECLINED } from './prompter.ts';
export type {
  Cancelled,
  Choice,
  ConfirmPrompt,
  Declined,
  Dismissed,
  MultiselectPrompt,
  PromptLog,
  Prompter,
  SelectPrompt,
  TextPrompt,
} from './prompter.ts';
export { EXIT_FAILED, EXIT_OK, EXIT_USAGE, USAGE } from './usage.ts';
