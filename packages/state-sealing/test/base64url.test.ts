import fc from 'fast-check';
import { expect, test } from 'vitest';

import {
  base64UrlLength,
  decodeBase64Url,
  encodeBase64Url,
  isCanonicalBase64Url,
} from '../src/base64url.ts';

test('encodes exactly as Buffer does, and decodes back', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
      const text = encodeBase64Url(bytes);
      expect(text).toBe(Buffer.from(bytes).toString('base64url'));
      expect(text.length).toBe(base64UrlLength(bytes.length));
      expect(isCanonicalBase64Url(text)).toBe(true);
      expect(decodeBase64Url(text)).toEqual(bytes);
      expect(decodeBase64Url(`xyz${text}`, 3)).toEqual(bytes);
    }),
    { numRuns: 500 },
  );
});

test('accepts only the canonical form: alphabet, length, unused bits zero', () => {
  expect(isCanonicalBase64Url('')).toBe(true);
  expect(isCanonicalBase64Url('AA')).toBe(true); // one zero byte
  expect(isCanonicalBase64Url('AB')).toBe(false); // the same byte with an unused bit set
  expect(isCanonicalBase64Url('AAA')).toBe(true);
  expect(isCanonicalBase64Url('AAB')).toBe(false);
  expect(isCanonicalBase64Url('AAAAA')).toBe(false); // no byte count gives 5 characters
  for (const bad of ['AA==', 'A+AA', 'A/AA', 'AA A', 'AA\nA', 'AAé', 'AA.A']) {
    expect(isCanonicalBase64Url(bad)).toBe(false);
  }
  expect(isCanonicalBase64Url('ps1.AAAA', 4)).toBe(true);
  expect(isCanonicalBase64Url('ps1.AAAA', 0)).toBe(false);
});

test('every text the canonical check accepts re-encodes to itself', () => {
  fc.assert(
    fc.property(
      fc.string({
        unit: fc.constantFrom(
          ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
        ),
      }),
      (text) => {
        if (isCanonicalBase64Url(text)) expect(encodeBase64Url(decodeBase64Url(text))).toBe(text);
      },
    ),
    { numRuns: 1000 },
  );
});
