import { emitKeypressEvents } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { styleText } from 'node:util';

import * as clack from '@clack/prompts';

import { CANCELLED, DECLINED, type Dismissed, type Prompter } from './prompter.ts';

/**
 * The real terminal, through `@clack/prompts`: it owns raw mode, key handling, redrawing and
 * colours, so nothing here touches the terminal by hand. Escape and Ctrl-C end a prompt as
 * "cancelled" (clack's own keys); Ctrl-D ends it as "declined".
 */

export interface ClackStreams {
  /** Where keys come from; default stdin. */
  input?: Readable;
  /**
   * Where the questions are drawn. The CLI uses stderr, so stdout carries only the result and
   * `parley call … > result.txt` still works interactively.
   */
  output?: Writable;
}

interface Key {
  ctrl?: boolean;
  name?: string;
}

/** Ctrl-D, as the terminal sends it. */
const CTRL_D = '\x04';

/**
 * Run one clack prompt so that Ctrl-D declines it. clack has no "decline": Ctrl-D is made one
 * of its cancel keys (so the prompt closes and redraws as Escape closes it), and a keypress
 * listener notes that it was Ctrl-D, which turns the cancel into a decline.
 */
async function dismissible<T>(
  input: Readable,
  run: () => Promise<T | symbol>,
): Promise<Exclude<T, symbol> | Dismissed> {
  let declined = false;
  const onKeypress = (text: string | undefined, key: Key | undefined) => {
    if (text === CTRL_D || (key?.ctrl === true && key.name === 'd')) declined = true;
  };
  emitKeypressEvents(input);
  input.on('keypress', onKeypress);
  try {
    const value = await run();
    if (!clack.isCancel(value)) return value as Exclude<T, symbol>;
    return declined ? DECLINED : CANCELLED;
  } finally {
    input.off('keypress', onKeypress);
  }
}

export function clackPrompter(streams: ClackStreams = {}): Prompter {
  clack.updateSettings({ aliases: { [CTRL_D]: 'cancel' } });
  const input = streams.input ?? process.stdin;
  const io = {
    input,
    ...(streams.output !== undefined ? { output: streams.output } : {}),
  };
  return {
    text: ({ message, placeholder, initialValue, validate, signal }) =>
      dismissible(input, () =>
        clack.text({
          ...io,
          message,
          ...(placeholder !== undefined ? { placeholder } : {}),
          ...(initialValue !== undefined ? { initialValue } : {}),
          ...(validate !== undefined ? { validate: (value) => validate(value ?? '') } : {}),
          ...(signal !== undefined ? { signal } : {}),
        }),
      ),
    confirm: ({ message, initialValue, signal }) =>
      dismissible(input, () =>
        clack.confirm({
          ...io,
          message,
          ...(initialValue !== undefined ? { initialValue } : {}),
          ...(signal !== undefined ? { signal } : {}),
        }),
      ),
    select: ({ message, options, initialValue, signal }) =>
      dismissible(input, () =>
        clack.select({
          ...io,
          message,
          // clack's option type is conditional on the value type; ours are always strings.
          options: options as clack.Option<(typeof options)[number]['value']>[],
          ...(initialValue !== undefined ? { initialValue } : {}),
          ...(signal !== undefined ? { signal } : {}),
        }),
      ),
    multiselect: ({ message, options, initialValues, required, signal }) =>
      dismissible(input, () =>
        clack.multiselect({
          ...io,
          message,
          options: options as clack.Option<(typeof options)[number]['value']>[],
          required,
          ...(initialValues !== undefined ? { initialValues } : {}),
          ...(signal !== undefined ? { signal } : {}),
        }),
      ),
    question: (heading, message, hint, route) =>
      clack.log.step(
        [
          styleText('dim', heading),
          ...(route !== undefined ? [styleText('dim', `route: ${route}`)] : []),
          message,
          styleText('dim', hint),
        ].join('\n'),
        io,
      ),
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
