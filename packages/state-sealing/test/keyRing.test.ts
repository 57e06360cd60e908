import { describe, expect, test } from 'vitest';

import { createRequestStateSealer, generateKey, type RequestStateSealer } from '../src/index.ts';
import {
  BOOK_TRIP,
  KEY_A,
  KEY_B,
  KEY_C,
  expectRejected,
  manualClock,
  rejection,
  sealer,
} from './helpers.ts';

describe('secrets', () => {
  const make = (keys: ReadonlyArray<string | Uint8Array>) => () =>
    createRequestStateSealer({ audience: 'a', keys });

  test('a secret of 32 bytes or more is accepted, as a string (its UTF-8 bytes) or bytes', () => {
    expect(make(['correct horse battery staple 1234'])).not.toThrow();
    expect(make([new Uint8Array(32).fill(7)])).not.toThrow();
    expect(make([generateKey()])).not.toThrow();
  });

  test.each([
    [
      'a 31-character string',
      'k'.repeat(31),
      /keys\[0\] is 31 bytes; secrets must be at least 32 bytes/,
    ],
    ['31 bytes', new Uint8Array(31), /keys\[0\] is 31 bytes/],
    ['an empty string', '', /keys\[0\] is 0 bytes/],
    // 32 characters, but as hex only 16 bytes of entropy: refused although it is 32 UTF-8 bytes.
    [
      '32 hex digits',
      KEY_A.slice(0, 32),
      /keys\[0\] is 32 hex digits, i\.e\. 16 bytes of secret; use at least 64/,
    ],
    ['63 hex digits', KEY_A.slice(0, 63), /63 hex digits/],
  ])('%s is a RangeError', (_name, key, message) => {
    expect(make([key])).toThrow(RangeError);
    expect(make([key])).toThrow(message);
    expect(make([key])).toThrow(/^createRequestStateSealer: /);
  });

  test('the error names the offending position in the ring', () => {
    expect(make([KEY_A, KEY_B, 'short'])).toThrow(/keys\[2\]/);
  });

  test('a secret that is neither a string nor bytes is a TypeError', () => {
    expect(make([KEY_A, 42 as never])).toThrow(TypeError);
    expect(make([KEY_A, 42 as never])).toThrow(/keys\[1\] must be a string or a Uint8Array/);
  });

  test('the same secret twice in the ring is refused, whatever its form', () => {
    expect(make([KEY_A, KEY_B, KEY_A])).toThrow(/keys\[2\] repeats keys\[0\]/);
    expect(make([KEY_A, new TextEncoder().encode(KEY_A)])).toThrow(RangeError);
  });

  test('a string secret is its UTF-8 bytes: the same secret given as bytes opens its tokens', async () => {
    const asBytes = createRequestStateSealer({
      audience: 'booking-server',
      keys: [new TextEncoder().encode(KEY_A)],
    });
    expect(await asBytes.open(await sealer().seal('st', BOOK_TRIP), BOOK_TRIP)).toBe('st');
  });
});

describe('the ring', () => {
  test('keys[0] seals; every key in the ring opens', async () => {
    const ring = sealer({ keys: [KEY_A, KEY_B, KEY_C] });
    for (const key of [KEY_A, KEY_B, KEY_C]) {
      expect(await ring.open(await sealer({ keys: [key] }).seal('st', BOOK_TRIP), BOOK_TRIP)).toBe(
        'st',
      );
    }
    const token = await ring.seal('st', BOOK_TRIP);
    expect(await sealer({ keys: [KEY_A] }).open(token, BOOK_TRIP)).toBe('st');
    await expectRejected(sealer({ keys: [KEY_B, KEY_C] }).open(token, BOOK_TRIP), 'unknown-key');
  });

  test('a key’s id depends on the secret only, not on its place in the ring', async () => {
    const token = await sealer({ keys: [KEY_B] }).seal('st', BOOK_TRIP);
    expect(await sealer({ keys: [KEY_C, KEY_A, KEY_B] }).open(token, BOOK_TRIP)).toBe('st');
  });
});

/**
 * A fleet of replicas behind a load balancer: any round of a flow may land on any replica. Keys
 * are rotated the way the README says, one replica at a time; after every single replica
 * restarts, every replica seals a token and every replica must open every one of them.
 */
describe('rotation across a fleet, one replica at a time', () => {
  const REPLICAS = 3;
  const OLD = KEY_A;
  const NEW = KEY_B;

  function boot(keys: string[], now: () => number): RequestStateSealer {
    return createRequestStateSealer({ audience: 'booking-server', keys, now });
  }

  async function everyTokenOpensEverywhere(fleet: RequestStateSealer[], inFlight: string[]) {
    const fresh = await Promise.all(
      fleet.map((replica, i) => replica.seal(`from replica ${i}`, BOOK_TRIP)),
    );
    let opened = 0;
    for (const token of [...fresh, ...inFlight]) {
      for (const replica of fleet) {
        expect((await replica.open(token, BOOK_TRIP)).startsWith('from replica')).toBe(true);
        opened++;
      }
    }
    return { fresh, opened };
  }

  test('[old] → [old, new] → [new, old] → [new], with zero failures', async () => {
    const clock = manualClock();
    let fleet = Array.from({ length: REPLICAS }, () => boot([OLD], clock.now));
    let inFlight: string[] = [];
    let opened = 0;

    for (const ring of [[OLD, NEW], [NEW, OLD], [NEW]]) {
      if (ring.length === 1) {
        // Before dropping the old key, wait out the TTL (+ skew): every token sealed with it has expired.
        clock.advance((600 + 30) * 1000 + 1);
        inFlight = [];
      }
      for (let i = 0; i < REPLICAS; i++) {
        fleet = fleet.map((replica, j) => (j === i ? boot(ring, clock.now) : replica));
        const round = await everyTokenOpensEverywhere(fleet, inFlight);
        opened += round.opened;
        // Tokens in flight carry over: a flow that started before this restart must still finish.
        inFlight = [...inFlight, ...round.fresh];
        clock.advance(1000);
      }
    }
    expect(opened).toBeGreaterThan(100);
  });

  test('skipping the first step breaks flows: a replica on [new, old] seals what [old] cannot open', async () => {
    const clock = manualClock();
    const fleet = [boot([NEW, OLD], clock.now), boot([OLD], clock.now)];
    const token = await fleet[0]!.seal('st', BOOK_TRIP);
    await expectRejected(fleet[1]!.open(token, BOOK_TRIP), 'unknown-key');
  });

  test('dropping the old key early breaks flows still in flight', async () => {
    const clock = manualClock();
    const token = await boot([OLD, NEW], clock.now).seal('st', BOOK_TRIP);
    const error = await rejection(boot([NEW], clock.now).open(token, BOOK_TRIP));
    expect(error.reason).toBe('unknown-key');
  });
});
