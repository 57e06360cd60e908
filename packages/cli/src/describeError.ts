/**
 * An error as one line for a person: its message, then the causes it does not already mention
 * (a refused connection is `fetch failed` with the useful part, `ECONNREFUSED`, in its cause).
 */
export function describeError(error: unknown): string {
  let text = error instanceof Error ? error.message : String(error);
  let cause = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; depth < 4 && cause instanceof Error; depth += 1) {
    if (cause.message !== '' && !text.includes(cause.message)) text += `: ${cause.message}`;
    cause = cause.cause;
  }
  return text;
}
