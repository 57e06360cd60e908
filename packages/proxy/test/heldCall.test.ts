import { describe, expect, it } from 'vitest';

import { HeldCall } from '../src/heldCalls.ts';

/** One held call on its own: its asks, answers and outcome, as relay runs see them. */

const ask = { method: 'roots/list' as const, params: {} };

describe('HeldCall', () => {
  it('wakes every run waiting on it (a client that retried a round), and takes an answer once', async () => {
    const call = new HeldCall('call-1');
    const answers: unknown[] = [];
    call.run(async (put) => {
      answers.push(await put(ask));
      return 'done';
    });
    const [first, second] = await Promise.all([call.next(), call.next()]);
    expect(first).toEqual({ kind: 'asks', asks: [{ key: 'ask-1', request: ask }] });
    expect(second).toEqual(first);
    call.answer('ask-1', ['the answer']);
    call.answer('ask-1', ['a replayed answer']);
    expect(await call.next()).toEqual({ kind: 'done', value: 'done' });
    expect(answers).toEqual([['the answer']]);
  });

  it('gives the asks of one upstream round together, and ends with the abort reason', async () => {
    const call = new HeldCall('call-2');
    call.run((put) => Promise.all([put(ask), put(ask)]));
    const step = await call.next();
    expect(step.kind === 'asks' && step.asks.map(({ key }) => key)).toEqual(['ask-1', 'ask-2']);
    const reason = new Error('gone');
    call.abort(reason);
    expect(call.signal.aborted).toBe(true);
    expect(await call.next()).toEqual({ kind: 'failed', error: reason });
  });

  it("keys an ask as the upstream keys it; a key asked again, or the proxy's own, gets another", async () => {
    const call = new HeldCall('call-3');
    call.run(async (put) => {
      await Promise.all([put(ask, 'currency'), put(ask), put(ask, 'parley-proxy.heldCall')]);
      return put(ask, 'currency');
    });
    const first = await call.next();
    const keys = first.kind === 'asks' ? first.asks.map(({ key }) => key) : [];
    expect(keys).toEqual(['currency', 'ask-2', 'ask-3']);
    for (const key of keys) call.answer(key, 'answered');
    const second = await call.next();
    expect(second.kind === 'asks' && second.asks.map(({ key }) => key)).toEqual(['currency-2']);
  });
});
