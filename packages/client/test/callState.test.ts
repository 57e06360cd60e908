import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';

import { CallRegistry, CallState } from '../src/callState.ts';

const info = { method: 'tools/call' as const, name: 'book_flight' };

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('CallState', () => {
  test('the first failure wins and aborts the signal with it', async () => {
    const state = new CallState(info, 10, 1000);
    state.fail(new Error('first'));
    state.fail(new Error('second'));
    await expect(state.failed).rejects.toThrow('first');
    expect(state.signal.aborted).toBe(true);
    expect(state.signal.reason).toEqual(new Error('first'));
    expect(state.isSettled).toBe(true);
  });

  test("the caller's signal fails the call with its reason, even when already aborted", async () => {
    const controller = new AbortController();
    const state = new CallState(info, 10, 1000, controller.signal);
    controller.abort(new Error('user cancelled'));
    await expect(state.failed).rejects.toThrow('user cancelled');
    const late = new CallState(info, 10, 1000, AbortSignal.abort(new Error('too late')));
    await expect(late.failed).rejects.toThrow('too late');
  });

  test('the server timer fires after timeoutMs with the SDK’s timeout error', async () => {
    const state = new CallState(info, 10, 1000);
    state.startTimer();
    vi.advanceTimersByTime(999);
    expect(state.isSettled).toBe(false);
    vi.advanceTimersByTime(1);
    const error = await state.failed.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).code).toBe(SdkErrorCode.RequestTimeout);
    expect((error as Error).message).toBe(
      "tools/call 'book_flight' timed out: the server did not answer within 1000 ms",
    );
  });

  test('time spent in handlers is not counted, and the wait restarts after each answer', () => {
    const state = new CallState(info, 10, 1000);
    state.startTimer();
    vi.advanceTimersByTime(900);
    const resumeA = state.hold();
    const resumeB = state.hold();
    vi.advanceTimersByTime(60_000);
    resumeA();
    vi.advanceTimersByTime(60_000);
    expect(state.isSettled).toBe(false);
    resumeB();
    resumeB();
    vi.advanceTimersByTime(999);
    expect(state.isSettled).toBe(false);
    vi.advanceTimersByTime(1);
    expect(state.isSettled).toBe(true);
  });

  test('dispose stops the timer and lets go of the caller’s signal', () => {
    const controller = new AbortController();
    const state = new CallState(info, 10, 1000, controller.signal);
    state.startTimer();
    state.dispose();
    vi.advanceTimersByTime(5000);
    controller.abort();
    expect(state.signal.aborted).toBe(false);
  });
});

describe('CallRegistry', () => {
  test('lists the calls still running', () => {
    const calls = new CallRegistry();
    const a = new CallState(info, 10, 1000);
    const b = new CallState({ method: 'prompts/get', name: 'summarize' }, 10, 1000);
    calls.add(a);
    calls.add(b);
    a.fail(new Error('over'));
    expect(calls.inFlight()).toEqual([b]);
    calls.delete(b);
    expect(calls.inFlight()).toEqual([]);
  });

  test('a call the client stopped is remembered for its timeout; one that finished is not', () => {
    const calls = new CallRegistry();
    const finished = new CallState(info, 10, 1000);
    calls.add(finished);
    calls.delete(finished, 0);
    expect(calls.hasRecentlyStopped(0)).toBe(false);

    const stopped = new CallState(info, 10, 1000);
    calls.add(stopped);
    stopped.fail(new Error('over its bound'));
    expect(calls.hasRecentlyStopped(0)).toBe(true);
    calls.delete(stopped, 0);
    expect(calls.hasRecentlyStopped(999)).toBe(true);
    expect(calls.hasRecentlyStopped(1000)).toBe(false);
  });
});
