import fc from 'fast-check';
import { expect, test } from 'vitest';

import { MAX_DEPTH, canonicalJson } from '../src/canonicalJson.ts';

test('sorts keys at every depth and writes no whitespace', () => {
  expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
    '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
  );
});

test('writes everything else as JSON.stringify does', () => {
  expect(canonicalJson({ u: undefined, f: () => 1, n: Number.NaN, i: -Infinity, z: -0 })).toBe(
    '{"i":null,"n":null,"z":0}',
  );
  expect(canonicalJson([undefined, () => 1, Symbol('s')])).toBe('[null,null,null]');
  expect(canonicalJson({ when: new Date(0) })).toBe('{"when":"1970-01-01T00:00:00.000Z"}');
  expect(canonicalJson('é\u2028"\\')).toBe(JSON.stringify('é\u2028"\\'));
  expect(canonicalJson(Object(1))).toBe('1');
  expect(canonicalJson(undefined)).toBe('null');
});

test('a value and its JSON round trip, in any key order, give the same text', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const reparsed = JSON.parse(JSON.stringify(value)) as unknown;
      expect(canonicalJson(reparsed)).toBe(canonicalJson(value));
      expect(JSON.parse(canonicalJson(value))).toEqual(reparsed);
    }),
    { numRuns: 300 },
  );
  fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })), (record) => {
      const reversed = Object.fromEntries(Object.entries(record).reverse());
      expect(canonicalJson(reversed)).toBe(canonicalJson(record));
    }),
    { numRuns: 300 },
  );
});

test('refuses what has no JSON form: BigInt, cycles, absurd depth', () => {
  expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  expect(() => canonicalJson(cyclic)).toThrow(/nested deeper than 1000 \(or cyclic\)/);
  let deep: unknown = 1;
  for (let i = 0; i <= MAX_DEPTH; i++) deep = [deep];
  expect(() => canonicalJson(deep)).toThrow(RangeError);
  // A value reached twice without a cycle is fine.
  const shared = { x: 1 };
  expect(canonicalJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
});
