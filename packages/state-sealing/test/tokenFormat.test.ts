import fc from 'fast-check';
import { describe, expect, test } from 'vitest';

import { RequestStateError } from '../src/index.ts';
import { MIN_TOKEN_LENGTH, maxStateBytes, tokenLength } from '../src/tokenFormat.ts';
import { BOOK_TRIP, TRIP_STATE, expectRejected, rejection, sealer } from './helpers.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function bodyBytes(token: string): Buffer {
  return Buffer.from(token.slice('ps1.'.length), 'base64url');
}

function tokenOf(bytes: Uint8Array): string {
  return `ps1.${Buffer.from(bytes).toString('base64url')}`;
}

describe('the token', () => {
  test('is "ps1." and unpadded base64url of kid ‖ nonce ‖ ciphertext ‖ tag', async () => {
    const token = await sealer().seal(TRIP_STATE, BOOK_TRIP);
    expect(token).toMatch(/^ps1\.[A-Za-z0-9_-]+$/);
    // 16 clear bytes, 60 bytes of claims and the state under encryption, a 16-byte tag.
    expect(bodyBytes(token).length).toBe(16 + 60 + Buffer.byteLength(TRIP_STATE) + 16);
  });

  test('hides the state: no 4-byte run of it appears in the token, raw or decoded', async () => {
    const state = 'SECRET-quote-1284.50-for-ana@example.com';
    const token = await sealer().seal(state, BOOK_TRIP);
    const bytes = bodyBytes(token);
    for (let i = 0; i + 4 <= state.length; i++) {
      const run = state.slice(i, i + 4);
      expect(token.includes(run) || bytes.includes(Buffer.from(run))).toBe(false);
    }
  });

  test('hides the binding and the audience: the principal and tool name do not appear', async () => {
    const token = await sealer({ audience: 'ana-server' }).seal('x', {
      ...BOOK_TRIP,
      principal: 'ana@example.com',
    });
    const bytes = bodyBytes(token);
    for (const clear of ['ana', 'book_trip', 'tools/call', 'Lisbon']) {
      expect(bytes.includes(Buffer.from(clear))).toBe(false);
    }
  });

  test('names its key in clear: every token from one ring starts with the same key id', async () => {
    const s = sealer();
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++)
      ids.add(
        bodyBytes(await s.seal('x', BOOK_TRIP))
          .subarray(0, 4)
          .toString('hex'),
      );
    expect(ids.size).toBe(1);
  });
});

describe('sizes', () => {
  test('tokenLength is the real length of a sealed token', async () => {
    const s = sealer();
    for (const length of [0, 1, 2, 3, 100, 1000]) {
      expect((await s.seal('x'.repeat(length), BOOK_TRIP)).length).toBe(tokenLength(length));
    }
    expect(MIN_TOKEN_LENGTH).toBe(127);
  });

  test('maxStateBytes is the largest state whose token fits the budget', () => {
    for (let budget = MIN_TOKEN_LENGTH; budget < 3000; budget++) {
      const most = maxStateBytes(budget);
      expect(tokenLength(most)).toBeLessThanOrEqual(budget);
      expect(tokenLength(most + 1)).toBeGreaterThan(budget);
    }
  });
});

describe('no edit of a token opens', () => {
  test('every character position, changed to every other base64url character, is rejected', async () => {
    const s = sealer();
    const token = await s.seal(TRIP_STATE, BOOK_TRIP);
    expect(token.length).toBeGreaterThan(380);
    const reasons = new Map<string, number>();
    let tried = 0;
    for (let i = 0; i < token.length; i++) {
      const alternatives =
        i < 4 ? ['q', 'P', '1', ',', ALPHABET[i]!] : ALPHABET.replace(token[i]!, '');
      for (const c of alternatives) {
        const edited = token.slice(0, i) + c + token.slice(i + 1);
        if (edited === token) continue;
        const error = await rejection(s.open(edited, BOOK_TRIP));
        reasons.set(error.reason, (reasons.get(error.reason) ?? 0) + 1);
        tried++;
      }
    }
    expect(tried).toBeGreaterThan(24_000);
    // Prefix and final-character padding bits → malformed; kid → unknown-key; the rest → tampered.
    expect([...reasons.keys()].sort()).toEqual(['malformed', 'tampered', 'unknown-key']);
  });

  test('every bit of the decoded token, flipped, is rejected', async () => {
    const s = sealer();
    const bytes = bodyBytes(await s.seal(TRIP_STATE, BOOK_TRIP));
    for (let i = 0; i < bytes.length; i++) {
      for (let bit = 0; bit < 8; bit++) {
        const edited = Buffer.from(bytes);
        edited[i]! ^= 1 << bit;
        await expectRejected(
          s.open(tokenOf(edited), BOOK_TRIP),
          i < 4 ? 'unknown-key' : 'tampered',
        );
      }
    }
  });

  test('on the WebCrypto engine too (one change per position)', async () => {
    const s = sealer({ engine: 'webcrypto' });
    const token = await s.seal(TRIP_STATE, BOOK_TRIP);
    for (let i = 0; i < token.length; i++) {
      const c = token[i] === 'A' ? 'B' : 'A';
      await rejection(s.open(token.slice(0, i) + c + token.slice(i + 1), BOOK_TRIP));
    }
  });

  test('every truncation, and every extension, is rejected', async () => {
    const s = sealer();
    const token = await s.seal(TRIP_STATE, BOOK_TRIP);
    for (let length = 0; length < token.length; length++)
      await rejection(s.open(token.slice(0, length), BOOK_TRIP));
    for (const extra of ['A', 'AA', 'AAA', 'AAAA', '=', '==', '.', ' ', '\n']) {
      await rejection(s.open(token + extra, BOOK_TRIP));
    }
  });

  test('ciphertext spliced from another token under the same key is tampered', async () => {
    const s = sealer();
    const a = bodyBytes(await s.seal(TRIP_STATE, BOOK_TRIP));
    const b = bodyBytes(await s.seal(TRIP_STATE, BOOK_TRIP));
    const spliced = Buffer.concat([a.subarray(0, 16), b.subarray(16)]);
    await expectRejected(s.open(tokenOf(spliced), BOOK_TRIP), 'tampered');
  });
});

describe('garbage in, RequestStateError out', () => {
  test.each([
    ['empty', ''],
    ['the prefix alone', 'ps1.'],
    ['another version', 'ps2.' + 'A'.repeat(200)],
    ['no prefix', 'A'.repeat(200)],
    ['standard base64', 'ps1.' + 'ab+/'.repeat(50)],
    ['padding', 'ps1.' + 'A'.repeat(198) + '=='],
    ['whitespace', 'ps1.' + 'A'.repeat(100) + ' ' + 'A'.repeat(99)],
    ['non-ASCII', 'ps1.' + 'é'.repeat(200)],
    ['a length no base64 has', 'ps1.' + 'A'.repeat(201)],
    ['an SDK codec token', 'v1.eyJwIjoieCIsImV4cCI6MX0.bWFj'],
  ])('%s is malformed', async (_name, token) => {
    await expectRejected(sealer().open(token, BOOK_TRIP), 'malformed');
  });

  test('a huge token is refused as too-large, before any decoding', async () => {
    const huge = 'ps1.' + 'A'.repeat(50_000_000);
    await expectRejected(sealer().open(huge, BOOK_TRIP), 'too-large');
  });

  test.each([null, undefined, 42, {}, ['ps1.'], Symbol('t')])(
    'a non-string token (%s) is malformed',
    async (token) => {
      await expectRejected(sealer().open(token as never, BOOK_TRIP), 'malformed');
    },
  );

  test('a token of zeroes under a known key id is tampered, not a crash', async () => {
    const s = sealer();
    const bytes = bodyBytes(await s.seal('x', BOOK_TRIP));
    bytes.fill(0, 4);
    await expectRejected(s.open(tokenOf(bytes), BOOK_TRIP), 'tampered');
  });

  test('any string at all: open rejects, and only with RequestStateError', async () => {
    const s = sealer();
    const token = await s.seal(TRIP_STATE, BOOK_TRIP);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 600 }),
          fc
            .string({ unit: fc.constantFrom(...ALPHABET), maxLength: 600 })
            .map((body) => `ps1.${body}`),
          fc
            .tuple(fc.nat(token.length - 1), fc.string({ maxLength: 8 }), fc.nat(8))
            .map(([at, insert, drop]) => token.slice(0, at) + insert + token.slice(at + drop)),
        ),
        async (candidate) => {
          fc.pre(candidate !== token);
          try {
            await s.open(candidate, BOOK_TRIP);
            return false;
          } catch (error) {
            return error instanceof RequestStateError;
          }
        },
      ),
      { numRuns: 1500 },
    );
  });
});
