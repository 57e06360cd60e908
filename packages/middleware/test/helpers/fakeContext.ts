/**
 * Middleware contexts without a server: what the server builds for a round of a call, or for a
 * list, with the fields a test cares about overridden.
 */
import type { Era, InputResponses } from '@parley/core';

import type { Flow, HandlerInfo, MiddlewareContext } from '../../src/index.ts';

export interface FakeRound {
  method?: string;
  params?: Record<string, unknown>;
  era?: Era;
  principal?: string;
  handler?: HandlerInfo;
  flow?: Flow;
  inputResponses?: InputResponses | null;
  requestState?: string | null;
  resumesFlow?: boolean;
  pushedRequests?: number;
}

/** A round of `tools/call book_flight` (by default the first round of flow `f1`, modern era). */
export function roundContext(init: FakeRound = {}): MiddlewareContext {
  const method = init.method ?? 'tools/call';
  const era = init.era ?? 'modern';
  const inputResponses = init.inputResponses ?? null;
  const requestState = init.requestState ?? null;
  const flow = init.flow ?? { id: 'f1', round: 1, startedAt: 1_000 };
  const isContinuation = inputResponses !== null || requestState !== null;
  const name = (init.params?.name as string | undefined) ?? 'book_flight';
  return {
    method,
    params: init.params ?? { name, arguments: {} },
    era,
    protocolVersion: era === 'modern' ? '2026-07-28' : '2025-11-25',
    principal: init.principal,
    handler: init.handler ?? { kind: 'tool', name, cacheable: false },
    flow,
    inputResponses,
    requestState,
    isContinuation,
    resumesFlow: init.resumesFlow ?? false,
    pushedRequests: init.pushedRequests ?? 0,
    store: new Map(),
  };
}

/** A list request (`tools/list` by default): no handler, no author context, no flow. */
export function listContext(
  method = 'tools/list',
  params: Record<string, unknown> = {},
  era: Era = 'modern',
): MiddlewareContext {
  return {
    method,
    params,
    era,
    protocolVersion: era === 'modern' ? '2026-07-28' : '2025-11-25',
    principal: undefined,
    handler: undefined,
    flow: undefined,
    inputResponses: null,
    requestState: null,
    isContinuation: false,
    resumesFlow: false,
    pushedRequests: 0,
    store: new Map(),
  };
}

/** The three rounds of the seeds' booking flow, as the server would describe them. */
export function bookingRounds(): [MiddlewareContext, MiddlewareContext, MiddlewareContext] {
  return [
    roundContext({ flow: { id: 'f1', round: 1, startedAt: 1_000 } }),
    roundContext({
      flow: { id: 'f1', round: 2, startedAt: 1_000 },
      inputResponses: { destination: { action: 'accept', content: { destination: 'Paris' } } },
      resumesFlow: true,
    }),
    roundContext({
      flow: { id: 'f1', round: 3, startedAt: 1_000 },
      inputResponses: { date: { action: 'accept', content: { date: '2026-08-01' } } },
      requestState: 'Paris',
      resumesFlow: true,
    }),
  ];
}

/** A clock that moves only when told to. */
export function manualClock(start = 0): { now: () => number; advance(ms: number): void } {
  let time = start;
  return {
    now: () => time,
    advance(ms: number) {
      time += ms;
    },
  };
}
