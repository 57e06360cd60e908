import type { Readable, Writable } from 'node:stream';

import * as clack from '@clack/prompts';

import { CANCELLED, type Cancelled, type Prompter } from './prompter.ts';

/**
 * The real terminal, through `@clack/prompts`: it owns raw mode, key handling, redrawing and
 * colours, so nothing here touches the terminal by hand. Ctrl-C and Escape end a prompt as
 * "cancelled".
 */

export interface ClackStreams {
  input?: Readable;
  /**
   * Where the questions are drawn. The CLI uses stderr, so stdout carries only the result and
   * `parley call … > result.txt` still works interactively.
   */
  output?: Writable;
}

function settle<T>(value: T): Exclude<T, symbol> | Cancelled {
  return clack.isCancel(value) ? CANCELLED : (value as Exclude<T, symbol>);
}

export function clackPrompter(streams: ClackStreams = {}): Prompter {
  const io = {
    ...(streams.input !== undefined ? { input: streams.input } : {}),
    ...(streams.output !== undefined ? { output: streams.output } : {}),
  };
  return {
    async text({ message, placeholder, initialValue, validate, signal }) {
      return settle(
        await clack.text({
          ...io,
          message,
          ...(placeholder !== undefined ? { placeholder } : {}),
          ...(initialValue !== undefined ? { initialValue } : {}),
          ...(validate !== undefined ? { validate: (value) => validate(value ?? '') } : {}),
          ...(signal !== undefined ? { signal } : {}),
        }),
      );
    },
    async confirm({ message, initialValue, signal }) {
      return settle(
        await clack.confirm({
          ...io,
          message,
          ...(initialValue !== undefined ? { initialValue } : {}),
          ...(signal !== undefined ? { signal } : {}),
        }),
      );
    },
    async select({ message, options, initialValue, signal }) {
      return settle(
        await clack.select({
          ...io,
          message,
          // clack's option type is conditional on the value type; ours are always strings.
          options: options as clack.Option<(typeof options)[number]['value']>[],
          ...(initialValue !== undefined ? { initialValue } : {}),
          ...(signal !== undefined ? { signal } : {}),
        }),
      );
    },
    async multiselect({ message, options, initialValues, required, signal }) {
      return settle(
        await clack.multiselect({
          ...io,
          message,
          options: options as clack.Option<(typeof options)[number]['value']>[],
          required,
          ...(initialValues !== undefined ? { initialValues } : {}),
          ...(signal !== undefined ? { signal } : {}),
        }),
      );
    },
    step: (message) => clack.log.step(message, io),
    info: (message) => clack.log.info(message, io),
    success: (message) => clack.log.success(message, io),
    warn: (message) => clack.log.warn(message, io),
    error: (message) => clack.log.error(message, io),
    note: (message, title) => clack.note(message, title, io),
    intro: (title) => clack.intro(title, io),
    outro: (message) => clack.outro(message, io),
  };
}
