import { expect } from 'vitest';

import {
  RequestStateError,
  createRequestStateSealer,
  type RequestBinding,
  type RequestStateErrorReason,
  type RequestStateSealer,
  type RequestStateSealerOptions,
} from '../src/index.ts';

/** Fixed secrets, as `keygen` prints them. */
export const KEY_A = '6b3c1f0e9d8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c';
export const KEY_B = 'f0e1d2c3b4a5968778695a4b3c2d1e0ff0e1d2c3b4a5968778695a4b3c2d1e0f';
export const KEY_C = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

export const BOOK_TRIP: RequestBinding = {
  method: 'tools/call',
  target: 'book_trip',
  arguments: { destination: 'Lisbon', travellers: 2 },
};

/** A realistic state: what a booking tool carries between rounds (about 200 bytes). */
export const TRIP_STATE: string = JSON.stringify({
  step: 'need-date',
  destination: 'Lisbon',
  travellers: 2,
  quote: { id: 'q_7f3a9c2e41', currency: 'EUR', total: 1284.5 },
  answered: ['destination', 'travellers'],
  flowId: '6f0f7c1e-2b7a-4c55-9d1e-8a1f3b2c4d5e',
});

export function sealer(options: Partial<RequestStateSealerOptions> = {}): RequestStateSealer {
  return createRequestStateSealer({ audience: 'booking-server', keys: [KEY_A], ...options });
}

/** The RequestStateError a promise rejects with; fails the test if it resolves or rejects otherwise. */
export async function rejection(promise: Promise<unknown>): Promise<RequestStateError> {
  let settled: { value: unknown } | { error: unknown };
  try {
    settled = { value: await promise };
  } catch (error) {
    settled = { error };
  }
  if ('value' in settled)
    throw new Error(`expected a RequestStateError, got ${String(settled.value)}`);
  expect(settled.error).toBeInstanceOf(RequestStateError);
  return settled.error as RequestStateError;
}

export async function expectRejected(
  promise: Promise<unknown>,
  reason: RequestStateErrorReason,
): Promise<void> {
  expect((await rejection(promise)).reason).toBe(reason);
}

/** A settable clock for the `now` options. */
export function manualClock(start: number = Date.UTC(2026, 7, 1, 12, 0, 0)): {
  now: () => number;
  advance(ms: number): void;
  set(ms: number): void;
} {
  let time = start;
  return {
    now: () => time,
    advance(ms: number) {
      time += ms;
    },
    set(ms: number) {
      time = ms;
    },
  };
}
