import { describe, expect, test } from 'vitest';

import { isRecord } from '../src/index.ts';

describe('isRecord', () => {
  test('a non-null object that is not an array is a record, whatever its prototype', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord(JSON.parse('{"a":1}'))).toBe(true);
    expect(isRecord(Object.create(null))).toBe(true);
    expect(isRecord(new Map())).toBe(true);
  });

  test('null, arrays and primitives are not', () => {
    for (const value of [null, undefined, [], [1], 'a', 1, true, () => ({})]) {
      expect(isRecord(value)).toBe(false);
    }
  });
});
