import { explainConnectionFailure } from '@parley/client';

import { describeError } from './dom.ts';

/**
 * Why the page could not connect to `target`, in the terminal's words (@parley/client's
 * `explainConnectionFailure`, which `parley` uses too): about the server the person typed, not
 * the forwarder in between, whose JSON errors carry the code that says which failure it was.
 */
export function connectionProblem(error: unknown, target: string): string {
  return (
    explainConnectionFailure(error, target, { timeoutMs: CLIENT_TIMEOUT_MS }) ??
    `Could not connect to ${target}: ${describeError(error)}`
  );
}

/** The client's own deadline for a request (its default `timeoutMs`). */
const CLIENT_TIMEOUT_MS = 60_000;
