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

/** What to tell a person whose connection to `target` failed with `error`. */
export function explainConnectionFailure(
  error: unknown,
  target: ServerTarget,
  timeoutMs: number,
): string {
  const explained = explain(error, target.kind === 'http' ? target.url : target.command, {
    timeoutMs,
    timeoutAdvice: '--timeout waits longer',
    authorizationAdvice: 'which parley does not send',
    stderrAdvice: 'add --server-stderr',
  });
  return explained ?? `Could not connect: ${describeError(error)}`;
}
