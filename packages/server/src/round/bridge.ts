import { type InputRequest, type InputRequiredResult, type InputResponse } from '@parley/core';

import type { ServerRuntime } from '../runtime.ts';
import type { RoundReply, RoundRequest } from './request.ts';

/**
 * The opt-in era bridge (`eraBridge: true`): an ask returned on a handshake-era connection is
 * fulfilled by pushing its requests to the client (real `elicitation/create`,
 * `sampling/createMessage`, `roots/list`), then the round is served again with the answers and
 * the sealed state, exactly as a modern client would retry it.
 */

/** The most rounds one bridged call may take before it is stopped. */
const MAX_BRIDGED_ROUNDS = 10;

async function answer(
  request: InputRequest,
  req: RoundRequest & { push: NonNullable<RoundRequest['push']> },
  timeout: number,
): Promise<unknown> {
  const wait = { timeout, signal: req.signal };
  switch (request.method) {
    case 'elicitation/create':
      // URL mode needs an id on the handshake era; the modern ask has none.
      return req.push.elicit(
        request.params.mode === 'url' && request.params.elicitationId === undefined
          ? { ...request.params, elicitationId: crypto.randomUUID() }
          : request.params,
        wait,
      );
    case 'sampling/createMessage':
      return req.push.sample(request.params, wait);
    case 'roots/list':
      return { roots: await req.push.listRoots(wait) };
  }
}

/** Fulfil `ask` over the push channel until the round completes (or the rounds run out). */
export async function bridgeAsk(
  runtime: ServerRuntime,
  req: RoundRequest,
  ask: InputRequiredResult,
  serve: (runtime: ServerRuntime, req: RoundRequest) => Promise<RoundReply>,
): Promise<RoundReply> {
  const pushing = req as RoundRequest & { push: NonNullable<RoundRequest['push']> };
  let current = ask;
  for (let round = 1; round <= MAX_BRIDGED_ROUNDS; round++) {
    const entries = Object.entries(current.inputRequests ?? {});
    const answers = await Promise.all(
      entries.map(
        async ([key, request]) =>
          [key, await answer(request, pushing, runtime.elicitationTimeoutMs)] as const,
      ),
    );
    const reply = await serve(runtime, {
      ...req,
      // The retry is served as the modern client would send it, then bridged no further here.
      push: undefined,
      inputResponses: Object.fromEntries(answers) as Record<string, InputResponse>,
      requestState: current.requestState,
    });
    if (reply.kind === 'error' || reply.result.resultType !== 'input_required') return reply;
    current = reply.result as unknown as InputRequiredResult;
  }
  return {
    kind: 'error',
    error: {
      code: -32603,
      message: `This call still asked for input after ${MAX_BRIDGED_ROUNDS} bridged rounds; it was stopped.`,
    },
  };
}
