import { describe, expect, test } from 'vitest';

import { RequestStateError, createMemoryReplayStore } from '../src/index.ts';
import { openAtOnce, openTokenAtOnce, sealAtOnce } from '../src/internal.ts';
import { BOOK_TRIP, KEY_B, TRIP_STATE, sealer } from './helpers.ts';

/**
 * `@parley/state-sealing/internal` (@parley/server's only): `sealAtOnce`, `openAtOnce` and
 * `openTokenAtOnce` make and check the same tokens as a sealer's `seal`, `open` and
 * `openToken`, answered at once wherever every step can be (node:crypto, keys derived, no
 * replay store), and a promise otherwise; what the promise API rejects with is thrown.
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
    const token = sealAtOnce(s, TRIP_STATE, BOOK_TRIP);
    expect(typeof token).toBe('string');
    expect(openAtOnce(s, token as string, BOOK_TRIP)).toBe(TRIP_STATE);
    expect(await s.open(token as string, BOOK_TRIP)).toBe(TRIP_STATE);
    expect(openAtOnce(s, await s.seal(TRIP_STATE, BOOK_TRIP), BOOK_TRIP)).toBe(TRIP_STATE);
    const opened = openTokenAtOnce(s, token as string, BOOK_TRIP);
    expect(opened).not.toBeInstanceOf(Promise);
    expect(opened).toEqual(await s.openToken(token as string, BOOK_TRIP));
  });

  test('a bound request works the same', async () => {
    const s = await readySealer();
    const bound = s.bind(BOOK_TRIP);
    expect(openAtOnce(s, sealAtOnce(s, TRIP_STATE, bound) as string, bound)).toBe(TRIP_STATE);
  });

  test('what open would reject with is thrown, with the same reason', async () => {
    const s = await readySealer();
    const token = sealAtOnce(s, TRIP_STATE, BOOK_TRIP) as string;
    const flipped = `${token.slice(0, 30)}${token[30] === 'A' ? 'B' : 'A'}${token.slice(31)}`;
    const cases: [string, unknown, string][] = [
      ['tampered', flipped, 'tampered'],
      ['another binding', token, 'wrong-binding'],
      ['not a token', 'hello', 'malformed'],
      ['not a string', 42, 'malformed'],
    ];
    for (const [name, candidate, reason] of cases) {
      const binding = name === 'another binding' ? { ...BOOK_TRIP, target: 'other' } : BOOK_TRIP;
      const error = thrown(() => openAtOnce(s, candidate as string, binding));
      expect(error, name).toBeInstanceOf(RequestStateError);
      expect((error as RequestStateError).reason, name).toBe(reason);
      await expect(s.open(candidate as string, binding), name).rejects.toMatchObject({ reason });
    }
    const other = await readySealer({ keys: [KEY_B] });
    expect(thrown(() => openAtOnce(other, token, BOOK_TRIP))).toMatchObject({
      reason: 'unknown-key',
    });
  });

  test('a malformed binding or state is a TypeError, thrown', async () => {
    const s = await readySealer();
    expect(thrown(() => sealAtOnce(s, '\ud800', BOOK_TRIP))).toBeInstanceOf(TypeError);
    expect(thrown(() => sealAtOnce(s, 'x', { method: '', target: 'x' }))).toBeInstanceOf(TypeError);
    expect(thrown(() => sealAtOnce(s, 'x', { ...BOOK_TRIP, arguments: { n: 1n } }))).toBeInstanceOf(
      TypeError,
    );
    expect(thrown(() => sealAtOnce(s, 'x'.repeat(9000), BOOK_TRIP))).toMatchObject({
      reason: 'too-large',
    });
  });
});

describe('a promise where a step must wait', () => {
  test('before the keys are derived', async () => {
    const s = sealer();
    const token = sealAtOnce(s, TRIP_STATE, BOOK_TRIP);
    expect(token).toBeInstanceOf(Promise);
    const sealed = await token;
    const fresh = sealer();
    const opened = openAtOnce(fresh, sealed, BOOK_TRIP);
    expect(opened).toBeInstanceOf(Promise);
    expect(await opened).toBe(TRIP_STATE);
  });

  test('with WebCrypto, whose every call is asynchronous', async () => {
    const s = await readySealer({ engine: 'webcrypto' });
    const token = sealAtOnce(s, TRIP_STATE, BOOK_TRIP);
    expect(token).toBeInstanceOf(Promise);
    const opened = openAtOnce(s, await token, BOOK_TRIP);
    expect(opened).toBeInstanceOf(Promise);
    expect(await opened).toBe(TRIP_STATE);
    // A bad token still rejects (never throws) once a step had to wait.
    await expect(
      (async () => openAtOnce(s, `${(await token).slice(0, -2)}AA`, BOOK_TRIP))(),
    ).rejects.toMatchObject({ reason: 'tampered' });
  });

  test('with a replay store: the claim is awaited, and a second open is refused', async () => {
    const s = await readySealer({ replayStore: createMemoryReplayStore() });
    const token = sealAtOnce(s, TRIP_STATE, BOOK_TRIP) as string;
    const first = openTokenAtOnce(s, token, BOOK_TRIP);
    expect(first).toBeInstanceOf(Promise);
    expect((await first).plaintext).toBe(TRIP_STATE);
    await expect(openAtOnce(s, token, BOOK_TRIP)).rejects.toMatchObject({ reason: 'replayed' });
  });
});

describe('only for sealers made by createRequestStateSealer', () => {
  test('anything else is a TypeError naming the function, before any work', async () => {
    const real = await readySealer();
    const lookalike = { ...real };
    const cases: [string, () => unknown][] = [
      ['sealAtOnce', () => sealAtOnce(lookalike, TRIP_STATE, BOOK_TRIP)],
      ['openAtOnce', () => openAtOnce(lookalike, 'ps1.x', BOOK_TRIP)],
      ['openTokenAtOnce', () => openTokenAtOnce(lookalike, 'ps1.x', BOOK_TRIP)],
      ['sealAtOnce', () => sealAtOnce(undefined as never, TRIP_STATE, BOOK_TRIP)],
      ['openAtOnce', () => openAtOnce(null as never, 'ps1.x', BOOK_TRIP)],
    ];
    for (const [api, call] of cases) {
      const error = thrown(call);
      expect(error, api).toBeInstanceOf(TypeError);
      expect((error as Error).message, api).toBe(
        `${api}: the sealer was not made by createRequestStateSealer of this copy of @parley/state-sealing`,
      );
    }
    // The lookalike's own methods still work: they are the real sealer's.
    expect(await lookalike.open(await lookalike.seal(TRIP_STATE, BOOK_TRIP), BOOK_TRIP)).toBe(
      TRIP_STATE,
    );
  });

  test('the sealer itself has no answers at once', () => {
    const s = sealer();
    for (const name of ['sealNow', 'openNow', 'openTokenNow', 'sealAtOnce']) {
      expect(name in s, name).toBe(false);
    }
  });
});
