import { describe, expect, test } from 'vitest';

import { RequestStateError, createMemoryReplayStore } from '../src/index.ts';
import { BOOK_TRIP, KEY_B, TRIP_STATE, sealer } from './helpers.ts';

/**
 * `sealNow`, `openNow` and `openTokenNow`: the same tokens and the same checks as `seal`,
 * `open` and `openToken`, answered at once wherever every step can be (node:crypto, keys
 * derived, no replay store), and a promise otherwise; what the promise API rejects with is
 * thrown.
 */

/** A sealer whose keys are derived (the first seal waits for them). */
async function readySealer(options: Parameters<typeof sealer>[0] = {}) {
  const s = sealer(options);
  await s.seal('', BOOK_TRIP);
  return s;
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('node:crypto, keys derived', () => {
  test('seal and open answer at once, and the tokens are ordinary tokens', async () => {
    const s = await readySealer();
    const token = s.sealNow(TRIP_STATE, BOOK_TRIP);
    expect(typeof token).toBe('string');
    expect(s.openNow(token as string, BOOK_TRIP)).toBe(TRIP_STATE);
    expect(await s.open(token as string, BOOK_TRIP)).toBe(TRIP_STATE);
    expect(s.openNow(await s.seal(TRIP_STATE, BOOK_TRIP), BOOK_TRIP)).toBe(TRIP_STATE);
    const opened = s.openTokenNow(token as string, BOOK_TRIP);
    expect(opened).not.toBeInstanceOf(Promise);
    expect(opened).toEqual(await s.openToken(token as string, BOOK_TRIP));
  });

  test('a bound request works the same', async () => {
    const s = await readySealer();
    const bound = s.bind(BOOK_TRIP);
    expect(s.openNow(s.sealNow(TRIP_STATE, bound) as string, bound)).toBe(TRIP_STATE);
  });

  test('what open would reject with is thrown, with the same reason', async () => {
    const s = await readySealer();
    const token = s.sealNow(TRIP_STATE, BOOK_TRIP) as string;
    const flipped = `${token.slice(0, 30)}${token[30] === 'A' ? 'B' : 'A'}${token.slice(31)}`;
    const cases: [string, unknown, string][] = [
      ['tampered', flipped, 'tampered'],
      ['another binding', token, 'wrong-binding'],
      ['not a token', 'hello', 'malformed'],
      ['not a string', 42, 'malformed'],
    ];
    for (const [name, candidate, reason] of cases) {
      const binding = name === 'another binding' ? { ...BOOK_TRIP, target: 'other' } : BOOK_TRIP;
      const error = thrown(() => s.openNow(candidate as string, binding));
      expect(error, name).toBeInstanceOf(RequestStateError);
      expect((error as RequestStateError).reason, name).toBe(reason);
      await expect(s.open(candidate as string, binding), name).rejects.toMatchObject({ reason });
    }
    const other = await readySealer({ keys: [KEY_B] });
    expect(thrown(() => other.openNow(token, BOOK_TRIP))).toMatchObject({ reason: 'unknown-key' });
  });

  test('a malformed binding or state is a TypeError, thrown', async () => {
    const s = await readySealer();
    expect(thrown(() => s.sealNow('\ud800', BOOK_TRIP))).toBeInstanceOf(TypeError);
    expect(thrown(() => s.sealNow('x', { method: '', target: 'x' }))).toBeInstanceOf(TypeError);
    expect(thrown(() => s.sealNow('x', { ...BOOK_TRIP, arguments: { n: 1n } }))).toBeInstanceOf(
      TypeError,
    );
    expect(thrown(() => s.sealNow('x'.repeat(9000), BOOK_TRIP))).toMatchObject({
      reason: 'too-large',
    });
  });
});

describe('a promise where a step must wait', () => {
  test('before the keys are derived', async () => {
    const s = sealer();
    const token = s.sealNow(TRIP_STATE, BOOK_TRIP);
    expect(token).toBeInstanceOf(Promise);
    const sealed = await token;
    const fresh = sealer();
    const opened = fresh.openNow(sealed, BOOK_TRIP);
    expect(opened).toBeInstanceOf(Promise);
    expect(await opened).toBe(TRIP_STATE);
  });

  test('with WebCrypto, whose every call is asynchronous', async () => {
    const s = await readySealer({ engine: 'webcrypto' });
    const token = s.sealNow(TRIP_STATE, BOOK_TRIP);
    expect(token).toBeInstanceOf(Promise);
    const opened = s.openNow(await token, BOOK_TRIP);
    expect(opened).toBeInstanceOf(Promise);
    expect(await opened).toBe(TRIP_STATE);
    // A bad token still rejects (never throws) once a step had to wait.
    await expect(
      (async () => s.openNow(`${(await token).slice(0, -2)}AA`, BOOK_TRIP))(),
    ).rejects.toMatchObject({ reason: 'tampered' });
  });

  test('with a replay store: the claim is awaited, and a second open is refused', async () => {
    const s = await readySealer({ replayStore: createMemoryReplayStore() });
    const token = s.sealNow(TRIP_STATE, BOOK_TRIP) as string;
    const first = s.openTokenNow(token, BOOK_TRIP);
    expect(first).toBeInstanceOf(Promise);
    expect((await first).plaintext).toBe(TRIP_STATE);
    await expect(s.openNow(token, BOOK_TRIP)).rejects.toMatchObject({ reason: 'replayed' });
  });
});
