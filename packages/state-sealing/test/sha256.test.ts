import { createHash } from 'node:crypto';

import fc from 'fast-check';
import { expect, test } from 'vitest';

import { sha256 } from '../src/sha256.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const utf8 = (text: string) => new TextEncoder().encode(text);

test('FIPS 180-4 test vectors', () => {
  expect(hex(sha256(utf8('')))).toBe(
    'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  );
  expect(hex(sha256(utf8('abc')))).toBe(
    'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
  );
  expect(hex(sha256(utf8('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe(
    '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
  );
  expect(hex(sha256(utf8('a'.repeat(1_000_000))))).toBe(
    'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
  );
});

test('agrees with node:crypto on every length around the block boundaries, and on random input', () => {
  for (let length = 0; length <= 200; length++) {
    const data = Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 255);
    expect(hex(sha256(data))).toBe(createHash('sha256').update(data).digest('hex'));
  }
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 2000 }), (data) => {
      expect(hex(sha256(data))).toBe(createHash('sha256').update(data).digest('hex'));
    }),
    { numRuns: 300 },
  );
});
