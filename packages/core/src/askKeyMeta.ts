import { isRecord } from './isRecord.ts';

/**
 * Which ask a pushed request is for, on the wire. In the modern era every question has a key
 * (the `inputRequests` entry it travels under); in the handshake era a question is a
 * server-initiated request (`elicitation/create`, `sampling/createMessage`, `roots/list`)
 * whose JSON-RPC id says nothing about it. A Parley server puts the same key in the pushed
 * request's `params._meta[ASK_KEY_META]`, so a client can label, log or pre-answer it the same
 * way in both eras.
 *
 * The key is `ctx.ask`'s (or `ctx.askAll`'s) key; for `ctx.elicit`, `ctx.elicitUrl`,
 * `ctx.sample` and `ctx.listRoots`, which take none, it is the name a task gives their
 * question: `elicitation`, `sampling`, `roots`. A question of a task carries its key on the
 * task (`elicitation-2` when `elicitation` was used before).
 */
export const ASK_KEY_META = 'dev.parley/askKey';

/**
 * The ask key a pushed request's params carry (`params._meta[ASK_KEY_META]`), or `undefined`
 * when there is none (the server is not Parley, or an older one).
 */
export function askKeyOf(params: unknown): string | undefined {
  if (!isRecord(params) || !isRecord(params['_meta'])) return undefined;
  const key = params['_meta'][ASK_KEY_META];
  return typeof key === 'string' && key.length > 0 ? key : undefined;
}
