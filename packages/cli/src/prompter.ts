/**
 * What the terminal client needs from a prompt library, as an interface, so the rendering logic
 * can be tested with scripted answers and the real terminal (`clackPrompter`) stays a thin shell.
 */

/** Returned by a prompt the person left with Escape or Ctrl-C: "dismiss the question". */
export const CANCELLED: unique symbol = Symbol('parley-cli:cancelled');
export type Cancelled = typeof CANCELLED;

/** Returned by a prompt the person left with Ctrl-D: "no, I will not answer that". */
export const DECLINED: unique symbol = Symbol('parley-cli:declined');
export type Declined = typeof DECLINED;

/** How a person leaves a prompt without answering it. */
export type Dismissed = Cancelled | Declined;

/** The keys that leave a question unanswered, as the hint line under every question says. */
export const DISMISS_KEYS = 'Ctrl-D declines · Esc cancels';

/** Every prompt can be ended from outside, when the call it answers for is over. */
interface PromptBase {
  message: string;
  signal?: AbortSignal;
}

export interface TextPrompt extends PromptBase {
  /** Shown dimmed while the input is empty. */
  placeholder?: string;
  /** Pre-filled, editable. */
  initialValue?: string;
  /** A message keeps the prompt open and is shown under it; `undefined` accepts the input. */
  validate?: (value: string) => string | undefined;
}

export interface ConfirmPrompt extends PromptBase {
  initialValue?: boolean;
}

export interface Choice<V extends string> {
  value: V;
  label: string;
  hint?: string;
}

export interface SelectPrompt<V extends string> extends PromptBase {
  options: Choice<V>[];
  initialValue?: V;
}

export interface MultiselectPrompt<V extends string> extends PromptBase {
  options: Choice<V>[];
  initialValues?: V[];
  /** At least one option must be ticked. */
  required: boolean;
}

/** Lines around the prompts: what the server said, what happened. */
export interface PromptLog {
  /**
   * A question from the server, before its fields: where it comes from (`book_flight asks
   * (round 1)`), the server's message, and a hint line with the keys that decline or cancel.
   * `route`, given for every question a server asks, is the way it reached the person
   * (`elicitation (the client's own form)`, `App (answered here, as the App would)`,
   * `conversation (arguments)`), for a line of its own above the message.
   */
  question(heading: string, message: string, hint: string, route?: string): void;
  step(message: string): void;
  info(message: string): void;
  success(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** A boxed block of text with a title (a sampling conversation, a URL). */
  note(message: string, title: string): void;
}

export interface Prompter extends PromptLog {
  text(prompt: TextPrompt): Promise<string | Dismissed>;
  confirm(prompt: ConfirmPrompt): Promise<boolean | Dismissed>;
  select<V extends string>(prompt: SelectPrompt<V>): Promise<V | Dismissed>;
  multiselect<V extends string>(prompt: MultiselectPrompt<V>): Promise<V[] | Dismissed>;
  /** The start and the end of a session in the terminal. */
  intro(title: string): void;
  outro(message: string): void;
}

export function isDismissed(value: unknown): value is Dismissed {
  return value === CANCELLED || value === DECLINED;
}
