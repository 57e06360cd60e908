/**
 * A terminal shows one question at a time, but the client answers the requests of a modern
 * round concurrently. Everything that prompts goes through one queue: the next waits until the
 * previous is done, whether it succeeded or failed.
 */
export function oneAtATime(): <T>(task: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return (task) => {
    const next = last.then(task, task);
    last = next.catch(() => undefined);
    return next;
  };
}
