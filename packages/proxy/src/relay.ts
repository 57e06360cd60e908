import type { Context, InputRequest } from '@parley/server';
import type { CallProgress, Client } from '@parley/client';

import { heldCallGone, upstreamError } from './errors.ts';
import { PROXY_KEYS, type HeldCall, type HeldCalls } from './heldCalls.ts';
import type { Upstream } from './upstream.ts';

/**
 * One downstream call relayed to the upstream through a held call, in every pair of eras but
 * modern to modern, which passes through (`passThrough.ts`) unless the proxy shapes the asks
 * (the App route, adapted forms) or the tool may run as a task. One loop: the
 * upstream call is held (`HeldCalls`) and each of its asks is put to the downstream person with
 * `ctx.askAll`. On a handshake-era downstream that pushes the asks and the loop runs once; on a
 * modern one each ask ends the round with an `InputRequiredResult`, the handler runs again from
 * the top when the client answers, finds the same held call through `ctx.remember` (sealed in
 * the flow's `requestState`) and hands it the answers: the upstream call is resumed, never
 * started again.
 */

/** The `ctx.remember` key under which a flow keeps the id of its held call. */
const HELD_CALL = `${PROXY_KEYS}heldCall`;

/** The name `ctx.ask` gives what it throws to end a modern round at a question. */
const SUSPENSION = 'AskSuspension';

/** What the relay needs of the proxy. */
export interface RelayDeps {
  upstream: Upstream;
  held: HeldCalls;
}

/** The upstream request of one downstream call, given a connection and the call's options. */
export type UpstreamRequest = (
  client: Client,
  options: { signal: AbortSignal; onProgress: (progress: CallProgress) => void },
) => Promise<unknown>;

/** Progress of the held call goes to the round that is running it now. */
const progressTo = new WeakMap<HeldCall, Context>();

function open(ctx: Context, deps: RelayDeps, request: UpstreamRequest): string {
  const capabilities = ctx.requestContext.clientCapabilities;
  return deps.held.open((call, ask) =>
    deps.upstream.call(ask, capabilities, (client) =>
      request(client, {
        signal: call.signal,
        onProgress: ({ progress, total, message }) => {
          void progressTo
            .get(call)
            ?.reportProgress(progress, total, message)
            .catch(() => {});
        },
      }),
    ),
  ).id;
}

/** Relay one call: the value is the upstream's result, as the `Client` returned it. */
export async function relay(
  ctx: Context,
  deps: RelayDeps,
  request: UpstreamRequest,
): Promise<unknown> {
  const id = await ctx.remember(HELD_CALL, () => open(ctx, deps, request));
  const call = deps.held.take(id);
  if (call === undefined) throw heldCallGone();
  progressTo.set(call, ctx);
  // The downstream cancelled this round while the upstream worked on: cancel upstream too.
  const cancel = (): void => call.abort(ctx.signal.reason);
  ctx.signal.addEventListener('abort', cancel, { once: true });
  let waiting = false;
  try {
    for (;;) {
      const step = await call.next();
      if (step.kind === 'done') return step.value;
      if (step.kind === 'failed') throw upstreamError(step.error);
      const asks = Object.fromEntries(step.asks.map(({ key, request: ask }) => [key, ask]));
      let answers: Record<string, unknown>;
      try {
        answers = await ctx.askAll(asks as Record<string, InputRequest>);
      } catch (error) {
        if ((error as { name?: unknown } | null)?.name === SUSPENSION) waiting = true;
        else call.abort(error);
        throw error;
      }
      for (const { key } of step.asks) call.answer(key, answers[key]);
    }
  } finally {
    ctx.signal.removeEventListener('abort', cancel);
    progressTo.delete(call);
    if (waiting) deps.held.release(id);
    else deps.held.forget(id);
  }
}
