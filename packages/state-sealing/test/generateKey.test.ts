import { expect, test } from 'vitest';

import { createRequestStateSealer, generateKey } from '../src/index.ts';

test('is 32 random bytes as 64 lowercase hex digits, new every time', () => {
  const keys = new Set(Array.from({ length: 100 }, generateKey));
  expect(keys.size).toBe(100);
  for (const key of keys) expect(key).toMatch(/^[0-9a-f]{64}$/);
});

test('is accepted as a sealer key', () => {
  expect(() =>
    createRequestStateSealer({ audience: 'a', keys: [generateKey(), generateKey()] }),
  ).not.toThrow();
});
