import { describe, expect, test } from 'vitest';

import { RequestStateError, createRequestStateSealer, type RequestBinding } from '../src/index.ts';
import {
  BOOK_TRIP,
  KEY_A,
  KEY_B,
  TRIP_STATE,
  expectRejected,
  manualClock,
  rejection,
  sealer,
} from './helpers.ts';

describe('round trip', () => {
  test.each([
    ['empty', ''],
    ['short', 'step-2'],
    ['JSON state', TRIP_STATE],
    ['non-ASCII', 'Zoë → Łódź 🚆 東京'],
    ['control characters', '\u0000\n\t"\\'],
  ])('%s state opens to exactly what was sealed', async (_name, state) => {
    const s = sealer();
    expect(await s.open(await s.seal(state, BOOK_TRIP), BOOK_TRIP)).toBe(state);
  });

  test('openToken also gives the token id and the last moment it opens', async () => {
    const s = sealer();
    const first = await s.seal(TRIP_STATE, BOOK_TRIP);
    const second = await s.seal(TRIP_STATE, BOOK_TRIP);
    const a = await s.openToken(first, BOOK_TRIP);
    const b = await s.openToken(second, BOOK_TRIP);
    expect(a.plaintext).toBe(TRIP_STATE);
    expect(a.tokenId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a.tokenId).not.toBe(b.tokenId);
    expect(first.slice('ps1.'.length).startsWith(a.tokenId.slice(0, 20))).toBe(true);
    expect(a.expiresAt).toBeGreaterThan(Date.now() + 500_000);
    expect((await s.openToken(first, BOOK_TRIP)).tokenId).toBe(a.tokenId);
  });

  test('a token opens on another sealer with the same keys and audience', async () => {
    const token = await sealer().seal(TRIP_STATE, BOOK_TRIP);
    expect(await sealer().open(token, BOOK_TRIP)).toBe(TRIP_STATE);
  });

  test('sealing the same state twice gives different tokens (a fresh nonce each time)', async () => {
    const s = sealer();
    const tokens = await Promise.all(
      Array.from({ length: 50 }, () => s.seal(TRIP_STATE, BOOK_TRIP)),
    );
    expect(new Set(tokens).size).toBe(50);
  });
});

describe('size budget', () => {
  // 4 + ceil((16 + 60 + n + 16) * 4 / 3) <= 8192  ⇔  n <= 6049
  const LARGEST_STATE = 6049;

  test('the largest state that fits the default 8 KiB budget round-trips, at exactly 8192 bytes', async () => {
    const s = sealer();
    const state = 'x'.repeat(LARGEST_STATE);
    const token = await s.seal(state, BOOK_TRIP);
    expect(token.length).toBe(8192);
    expect(await s.open(token, BOOK_TRIP)).toBe(state);
  });

  test('one byte more is refused at seal time with too-large, saying how much fits', async () => {
    const error = await rejection(sealer().seal('x'.repeat(LARGEST_STATE + 1), BOOK_TRIP));
    expect(error.reason).toBe('too-large');
    expect(error.message).toContain('maxTokenBytes (8192)');
    expect(error.message).toContain(`at most ${LARGEST_STATE} bytes of state fit`);
  });

  test('the budget counts UTF-8 bytes, not characters', async () => {
    const s = sealer({ maxTokenBytes: 512 });
    // 512 ⇒ at most 288 bytes of state: 96 three-byte characters fit, 97 do not.
    const euros = '€'.repeat(96);
    expect(await s.open(await s.seal(euros, BOOK_TRIP), BOOK_TRIP)).toBe(euros);
    await expectRejected(s.seal('€'.repeat(97), BOOK_TRIP), 'too-large');
  });

  test('open refuses a token over the budget before looking inside it', async () => {
    const big = await sealer().seal('x'.repeat(2000), BOOK_TRIP);
    await expectRejected(sealer({ maxTokenBytes: 1024 }).open(big, BOOK_TRIP), 'too-large');
  });
});

describe('binding', () => {
  const s = sealer();

  test.each<[string, RequestBinding]>([
    ['another method', { ...BOOK_TRIP, method: 'prompts/get' }],
    ['another tool', { ...BOOK_TRIP, target: 'cancel_trip' }],
    ['other arguments', { ...BOOK_TRIP, arguments: { destination: 'Porto', travellers: 2 } }],
    [
      'an extra argument',
      { ...BOOK_TRIP, arguments: { destination: 'Lisbon', travellers: 2, x: 1 } },
    ],
    ['no arguments', { method: 'tools/call', target: 'book_trip' }],
    ['a principal', { ...BOOK_TRIP, principal: 'ana' }],
  ])('a token does not open for %s', async (_name, other) => {
    await expectRejected(s.open(await s.seal(TRIP_STATE, BOOK_TRIP), other), 'wrong-binding');
  });

  test('a token sealed for one user does not open for another, nor for nobody', async () => {
    const token = await s.seal(TRIP_STATE, { ...BOOK_TRIP, principal: 'ana' });
    expect(await s.open(token, { ...BOOK_TRIP, principal: 'ana' })).toBe(TRIP_STATE);
    await expectRejected(s.open(token, { ...BOOK_TRIP, principal: 'bob' }), 'wrong-binding');
    await expectRejected(s.open(token, BOOK_TRIP), 'wrong-binding');
    await expectRejected(s.open(token, { ...BOOK_TRIP, principal: '' }), 'wrong-binding');
  });

  test('argument key order does not matter, at any depth', async () => {
    const token = await s.seal('st', {
      method: 'tools/call',
      target: 't',
      arguments: { a: 1, b: { x: [1, { p: 1, q: 2 }], y: null } },
    });
    const reordered = { b: { y: null, x: [1, { q: 2, p: 1 }] }, a: 1 };
    expect(await s.open(token, { method: 'tools/call', target: 't', arguments: reordered })).toBe(
      'st',
    );
  });

  test('undefined, null and {} arguments bind the same', async () => {
    const plain = { method: 'prompts/get', target: 'summary' };
    for (const sealedWith of [undefined, null, {}]) {
      const token = await s.seal('st', { ...plain, arguments: sealedWith });
      for (const openedWith of [undefined, null, {}]) {
        expect(await s.open(token, { ...plain, arguments: openedWith })).toBe('st');
      }
    }
  });

  test('array order and value types do matter', async () => {
    const token = await s.seal('st', { ...BOOK_TRIP, arguments: { ids: [1, 2], n: 1 } });
    await expectRejected(
      s.open(token, { ...BOOK_TRIP, arguments: { ids: [2, 1], n: 1 } }),
      'wrong-binding',
    );
    await expectRejected(
      s.open(token, { ...BOOK_TRIP, arguments: { ids: [1, 2], n: '1' } }),
      'wrong-binding',
    );
  });

  test('a resource URI is bound like a name', async () => {
    const read = { method: 'resources/read', target: 'file:///reports/q3.md' };
    const token = await s.seal('st', read);
    expect(await s.open(token, read)).toBe('st');
    await expectRejected(
      s.open(token, { ...read, target: 'file:///reports/q4.md' }),
      'wrong-binding',
    );
  });

  test('arguments with no JSON form: TypeError at seal, wrong-binding at open', async () => {
    const odd = { ...BOOK_TRIP, arguments: { n: 10n } };
    await expect(s.seal('st', odd)).rejects.toThrow(TypeError);
    await expect(s.seal('st', odd)).rejects.toThrow(/^seal: binding\.arguments has no JSON form/);
    await expectRejected(s.open(await s.seal('st', BOOK_TRIP), odd), 'wrong-binding');
  });

  test.each([
    ['not an object', null, /^seal: binding must be an object/],
    ['no method', { target: 't' }, /^seal: binding\.method must be a non-empty string/],
    ['an empty method', { method: '', target: 't' }, /^seal: binding\.method/],
    ['a target that is not a string', { method: 'm', target: 1 }, /^seal: binding\.target/],
    [
      'a principal that is not a string',
      { method: 'm', target: 't', principal: 7 },
      /^seal: binding\.principal/,
    ],
  ])('a binding with %s is a TypeError, in seal and in open', async (_name, binding, message) => {
    await expect(s.seal('st', binding as never)).rejects.toThrow(TypeError);
    await expect(s.seal('st', binding as never)).rejects.toThrow(message);
    const token = await s.seal('st', BOOK_TRIP);
    await expect(s.open(token, binding as never)).rejects.toThrow(TypeError);
  });

  describe('bound once, for the seals and opens of one request', () => {
    test.each(['node', 'webcrypto'] as const)(
      '%s: a bound request seals and opens exactly as its binding does',
      async (engine) => {
        const e = createRequestStateSealer({ audience: 'booking-server', keys: [KEY_A], engine });
        const bound = e.bind(BOOK_TRIP);
        expect(await e.open(await e.seal(TRIP_STATE, bound), BOOK_TRIP)).toBe(TRIP_STATE);
        expect(await e.open(await e.seal(TRIP_STATE, BOOK_TRIP), bound)).toBe(TRIP_STATE);
        expect((await e.openToken(await e.seal('st', bound), bound)).plaintext).toBe('st');
        const other = e.bind({ ...BOOK_TRIP, target: 'cancel_trip' });
        await expectRejected(e.open(await e.seal('st', bound), other), 'wrong-binding');
      },
    );

    test('the binding is read when bound: a later change of the object does not reach it', async () => {
      const binding: RequestBinding = { ...BOOK_TRIP, arguments: { city: 'Paris' } };
      const bound = s.bind(binding);
      binding.arguments = { city: 'Rome' };
      binding.principal = 'mallory';
      const token = await s.seal('st', bound);
      expect(await s.open(token, { ...BOOK_TRIP, arguments: { city: 'Paris' } })).toBe('st');
      await expectRejected(s.open(token, binding), 'wrong-binding');
    });

    test('bound arguments with no JSON form: TypeError at seal, wrong-binding at open', async () => {
      const bound = s.bind({ ...BOOK_TRIP, arguments: { n: 10n } });
      await expect(s.seal('st', bound)).rejects.toThrow(
        /^seal: binding\.arguments has no JSON form/,
      );
      await expectRejected(s.open(await s.seal('st', BOOK_TRIP), bound), 'wrong-binding');
    });

    test('a malformed binding is a TypeError when bound', () => {
      expect(() => s.bind({ method: '', target: 't' })).toThrow(/^bind: binding\.method/);
      expect(() => s.bind(null as never)).toThrow(TypeError);
    });

    test('a bound request is frozen and opaque', () => {
      const bound = s.bind(BOOK_TRIP);
      expect(Object.isFrozen(bound)).toBe(true);
      expect(Object.keys(bound)).toEqual([]);
      expect(JSON.stringify(bound)).toBe('{}');
    });
  });
});

describe('audience', () => {
  test("another server's token, under the same keys, does not open", async () => {
    const token = await sealer({ audience: 'billing-server' }).seal(TRIP_STATE, BOOK_TRIP);
    await expectRejected(
      sealer({ audience: 'booking-server' }).open(token, BOOK_TRIP),
      'wrong-audience',
    );
  });
});

describe('keys', () => {
  test('a token from another key ring does not open', async () => {
    const token = await sealer({ keys: [KEY_B] }).seal(TRIP_STATE, BOOK_TRIP);
    await expectRejected(sealer({ keys: [KEY_A] }).open(token, BOOK_TRIP), 'unknown-key');
  });

  test('without keys, sealers in one process share a per-process key', async () => {
    const a = createRequestStateSealer({ audience: 'booking-server' });
    const b = createRequestStateSealer({ audience: 'booking-server', engine: 'webcrypto' });
    expect(await b.open(await a.seal('st', BOOK_TRIP), BOOK_TRIP)).toBe('st');
    await expectRejected(sealer().open(await a.seal('st', BOOK_TRIP), BOOK_TRIP), 'unknown-key');
  });

  test('changing the caller’s key bytes after creation changes nothing', async () => {
    const secret = new TextEncoder().encode(KEY_A);
    const s = createRequestStateSealer({ audience: 'booking-server', keys: [secret] });
    secret.fill(0);
    expect(await sealer().open(await s.seal('st', BOOK_TRIP), BOOK_TRIP)).toBe('st');
  });
});

describe('lifetime', () => {
  const MINUTE = 60_000;

  test('a token opens for ttl + skew (default 600 s + 30 s) and not a millisecond longer', async () => {
    const clock = manualClock();
    const s = sealer({ now: clock.now });
    const token = await s.seal('st', BOOK_TRIP);
    clock.advance(10 * MINUTE + 30_000);
    expect(await s.open(token, BOOK_TRIP)).toBe('st');
    clock.advance(1);
    await expectRejected(s.open(token, BOOK_TRIP), 'expired');
  });

  test('ttlMs and clockSkewMs are honoured', async () => {
    const clock = manualClock();
    const s = sealer({ now: clock.now, ttlMs: 5000, clockSkewMs: 0 });
    const token = await s.seal('st', BOOK_TRIP);
    clock.advance(5000);
    expect(await s.open(token, BOOK_TRIP)).toBe('st');
    clock.advance(1);
    const error = await rejection(s.open(token, BOOK_TRIP));
    expect(error.reason).toBe('expired');
    expect(error.message).toContain('expired at 2026-08-01T12:00:05.000Z');
  });

  test('a replica whose clock runs behind accepts tokens within the skew only', async () => {
    const ahead = manualClock();
    const behind = manualClock(ahead.now() - 30_000);
    const token = await sealer({ now: ahead.now }).seal('st', BOOK_TRIP);
    expect(await sealer({ now: behind.now }).open(token, BOOK_TRIP)).toBe('st');
    behind.advance(-1);
    await expectRejected(sealer({ now: behind.now }).open(token, BOOK_TRIP), 'expired');
  });

  test('a clock that returns garbage is a TypeError, not a silent pass', async () => {
    const s = sealer({ now: () => Number.NaN });
    await expect(s.seal('st', BOOK_TRIP)).rejects.toThrow(/^seal: options\.now\(\) must return/);
  });
});

describe('seal input', () => {
  test('a plaintext that is not a string is a TypeError', async () => {
    await expect(sealer().seal(42 as never, BOOK_TRIP)).rejects.toThrow(
      /^seal: plaintext must be a string/,
    );
  });

  test('a lone surrogate, which UTF-8 would silently replace, is a TypeError', async () => {
    await expect(sealer().seal('a\uD800b', BOOK_TRIP)).rejects.toThrow(TypeError);
    expect(await sealer().open(await sealer().seal('a\uD83D\uDE86b', BOOK_TRIP), BOOK_TRIP)).toBe(
      'a🚆b',
    );
  });
});

describe('options', () => {
  test.each<[string, Record<string, unknown>, ErrorConstructor, RegExp]>([
    ['no audience', { keys: [KEY_A] }, TypeError, /audience must be a non-empty string/],
    ['an empty audience', { audience: '' }, TypeError, /audience/],
    ['ttlMs 0', { audience: 'a', ttlMs: 0 }, RangeError, /ttlMs must be a whole number/],
    ['ttlMs NaN', { audience: 'a', ttlMs: Number.NaN }, RangeError, /ttlMs/],
    ['fractional ttlMs', { audience: 'a', ttlMs: 1000.5 }, RangeError, /ttlMs/],
    ['ttlMs over a year', { audience: 'a', ttlMs: 400 * 86_400_000 }, RangeError, /ttlMs/],
    ['a negative skew', { audience: 'a', clockSkewMs: -1 }, RangeError, /clockSkewMs/],
    ['a skew over an hour', { audience: 'a', clockSkewMs: 3_600_001 }, RangeError, /clockSkewMs/],
    [
      'the retired ttlSeconds',
      { audience: 'a', ttlSeconds: 600 },
      TypeError,
      /options\.ttlSeconds is not an option; use ttlMs, in milliseconds/,
    ],
    [
      'the retired clockSkewSeconds',
      { audience: 'a', clockSkewSeconds: 30 },
      TypeError,
      /options\.clockSkewSeconds is not an option; use clockSkewMs, in milliseconds/,
    ],
    [
      'a symbol key',
      { audience: 'a', [Symbol('ttlMs')]: 1000 },
      TypeError,
      /options\[Symbol\(ttlMs\)\] is not an option; options are named by strings/,
    ],
    [
      // Read by `options.ttlMs`, dropped by `{ ...options }`: refused, known or not.
      'a key inherited from the prototype',
      Object.assign(Object.create({ ttlMs: 1000 }) as object, { audience: 'a' }),
      TypeError,
      /options\.ttlMs is inherited from the object's prototype; give options as the object's own keys/,
    ],
    [
      'maxTokenBytes too small for any token',
      { audience: 'a', maxTokenBytes: 100 },
      RangeError,
      /maxTokenBytes must be an integer of at least 127/,
    ],
    [
      'fractional maxTokenBytes',
      { audience: 'a', maxTokenBytes: 1000.5 },
      RangeError,
      /maxTokenBytes/,
    ],
    ['now not a function', { audience: 'a', now: 5 }, TypeError, /now must be a function/],
    ['a replay store without claim', { audience: 'a', replayStore: {} }, TypeError, /replayStore/],
    [
      'an unknown engine',
      { audience: 'a', engine: 'openssl' },
      TypeError,
      /engine must be 'auto', 'node' or 'webcrypto'/,
    ],
    ['keys not an array', { audience: 'a', keys: KEY_A }, TypeError, /keys must be an array/],
    ['an empty ring', { audience: 'a', keys: [] }, RangeError, /keys is empty/],
  ])('%s is refused', (_name, options, type, message) => {
    const make = () => createRequestStateSealer(options as never);
    expect(make).toThrow(type);
    expect(make).toThrow(message);
    expect(make).toThrow(/^createRequestStateSealer: /);
  });

  test('options that are not an object are a TypeError', () => {
    expect(() => createRequestStateSealer(undefined as never)).toThrow(TypeError);
  });

  test('the smallest allowed budget fits an empty state', async () => {
    const s = sealer({ maxTokenBytes: 127 });
    expect(await s.open(await s.seal('', BOOK_TRIP), BOOK_TRIP)).toBe('');
    await expectRejected(s.seal('x', BOOK_TRIP), 'too-large');
  });
});

test('every failure of open is a RequestStateError carrying its reason in name and message', async () => {
  const error = await rejection(sealer().open('nope', BOOK_TRIP));
  expect(error).toBeInstanceOf(Error);
  expect(error).toBeInstanceOf(RequestStateError);
  expect(error.name).toBe('RequestStateError');
  expect(error.reason).toBe('malformed');
  expect(error.message).toMatch(/^requestState rejected \(malformed\): /);
});
