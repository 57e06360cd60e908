import type { InputContext } from '@parley/client';

/** The context a handler gets for round `round` of a `tools/call`, as the client builds it. */
export function inputContext(round = 1, overrides: Partial<InputContext> = {}): InputContext {
  return {
    era: 'modern',
    protocolVersion: '2026-07-28',
    call: { method: 'tools/call', name: 'book_flight' },
    round,
    key: `key-${round}`,
    signal: new AbortController().signal,
    ...overrides,
  };
}
