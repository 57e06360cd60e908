import { explainConnectionFailure as explain } from '@parley/client';

import { describeError } from './describeError.ts';
import type { ServerTarget } from './parseArgs.ts';

/**
 * A failed connection, said as what to check ("Nothing is listening at …: is the server
 * running?"). The sentences are @parley/client's `explainConnectionFailure`, which the
 * playground's page uses too; the terminal adds what its own flags can do about it.
 */

/** The connection failed before any call; the message says what to check. */
export class ConnectionProblem extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'ConnectionProblem';
  }
}

/** How long the client waits for an answer unless `--timeout` says otherwise (its default). */
export const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * What to tell a person whose connection to `target` failed with `error`, when it is a failure
 * to connect at all; `undefined` for any other error.
 */
export function explainIfConnectionFailure(
  error: unknown,
  target: ServerTarget,
  timeoutMs: number,
): string | undefined {
  return explain(error, target.kind === 'http' ? target.url : target.command, {
    timeoutMs,
    timeoutAdvice: '--timeout waits longer',
    authorizationAdvice: 'which parley does not send',
    stderrAdvice: 'add --server-stderr',
  });
}

/** What to tell a person whose connection to `target` failed with `error`. */
export function explainConnectionFailure(
  error: unknown,
  target: ServerTarget,
  timeoutMs: number,
): string {
  return (
    explainIfConnectionFailure(error, target, timeoutMs) ??
    `Could not connect: ${describeError(error)}`
  );
}
