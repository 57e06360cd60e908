import { InvalidAnswerError } from '@parley/core';

import { describeKind, describeValue } from './values.ts';

/**
 * Why a value is not a valid answer, said twice. `reason` names the kind of problem and never
 * the value: it goes into `InvalidAnswerError`'s message, and so into logs, `onError` and the
 * client's error. `withAnswer` may quote the value ("got the string \"tomorow\""): it is for the
 * person who typed it, whom the server's re-ask tells what was wrong.
 */
export interface ValueProblem {
  reason: string;
  withAnswer: string;
}

/** A problem whose detail for the person is `got` (the value, a length, a count). */
export function problem(reason: string, got?: string): ValueProblem {
  return { reason, withAnswer: got === undefined ? reason : `${reason}, got ${got}` };
}

/** A value of the wrong type: the kind of value it was is safe to log, the value is not. */
export function typeProblem(expected: string, value: unknown): ValueProblem {
  return {
    reason: `${expected}, got ${describeKind(value)}`,
    withAnswer: `${expected}, got ${describeValue(value)}`,
  };
}

/** The `InvalidAnswerError` for `found` in `field` (or in the answer as a whole). */
export function refusal(field: string | undefined, found: ValueProblem): InvalidAnswerError {
  return new InvalidAnswerError(
    { ...(field !== undefined ? { field } : {}), reason: found.reason },
    { reasonWithAnswer: found.withAnswer },
  );
}
