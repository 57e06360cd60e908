import * as nodeCrypto from 'node:crypto';

import fc from 'fast-check';
import { afterEach, describe, expect, test, vi } from 'vitest';

import { createRequestStateSealer } from '../../src/index.ts';
import { loadNodeModules } from '../../src/engines/nodeEngine.ts';
import { selectEngine } from '../../src/engines/selectEngine.ts';
import { BOOK_TRIP, KEY_A, KEY_B, TRIP_STATE } from '../helpers.ts';

const proc = process as { getBuiltinModule?: unknown };
const getBuiltinModule = proc.getBuiltinModule;

afterEach(() => {
  proc.getBuiltinModule = getBuiltinModule;
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('node:crypto and WebCrypto make and accept the same tokens', () => {
  const options = { audience: 'booking-server', keys: [KEY_B, KEY_A] };
  const node = createRequestStateSealer({ ...options, engine: 'node' });
  const web = createRequestStateSealer({ ...options, engine: 'webcrypto' });

  test('sealed on node:crypto, opened on WebCrypto', async () => {
    expect(await web.open(await node.seal(TRIP_STATE, BOOK_TRIP), BOOK_TRIP)).toBe(TRIP_STATE);
  });

  test('sealed on WebCrypto, opened on node:crypto', async () => {
    expect(await node.open(await web.seal(TRIP_STATE, BOOK_TRIP), BOOK_TRIP)).toBe(TRIP_STATE);
  });

  test('for any state, binding and principal, both directions', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', maxLength: 300 }),
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
        fc.jsonValue({ maxDepth: 3 }),
        async (state, target, principal, args) => {
          const binding = { method: 'tools/call', target, principal, arguments: args };
          expect(await web.open(await node.seal(state, binding), binding)).toBe(state);
          expect(await node.open(await web.seal(state, binding), binding)).toBe(state);
        },
      ),
      { numRuns: 150 },
    );
  });

  test('they agree on every rejection too', async () => {
    const token = await node.seal(TRIP_STATE, BOOK_TRIP);
    const other = { ...BOOK_TRIP, target: 'cancel_trip' };
    await expect(node.open(token, other)).rejects.toMatchObject({ reason: 'wrong-binding' });
    await expect(web.open(token, other)).rejects.toMatchObject({ reason: 'wrong-binding' });
    const forged = token.slice(0, 40) + (token[40] === 'A' ? 'B' : 'A') + token.slice(41);
    await expect(node.open(forged, BOOK_TRIP)).rejects.toMatchObject({ reason: 'tampered' });
    await expect(web.open(forged, BOOK_TRIP)).rejects.toMatchObject({ reason: 'tampered' });
  });
});

describe('choosing the engine', () => {
  test("'auto' takes node:crypto on Node", () => {
    expect(selectEngine('auto', 'api').name).toBe('node');
    expect(selectEngine('webcrypto', 'api').name).toBe('webcrypto');
  });

  test('node:crypto is found through process.getBuiltinModule, and only a complete one is used', () => {
    expect(loadNodeModules()).toBeDefined();
    proc.getBuiltinModule = undefined;
    expect(loadNodeModules()).toBeUndefined();
    proc.getBuiltinModule = () => ({ createCipheriv() {} }); // a partial polyfill
    expect(loadNodeModules()).toBeUndefined();
    // A complete-looking one whose cipher is a stub fails the known-answer test.
    const stub = () => {
      throw new Error('createCipheriv is not implemented');
    };
    proc.getBuiltinModule = (id: string) =>
      id === 'node:crypto'
        ? { ...nodeCrypto, createCipheriv: stub }
        : (getBuiltinModule as (id: string) => unknown).call(process, id);
    expect(loadNodeModules()).toBeUndefined();
    proc.getBuiltinModule = () => {
      throw new Error('no such module');
    };
    expect(loadNodeModules()).toBeUndefined();
  });

  test("without node:crypto (an edge runtime), 'auto' falls back to WebCrypto and still works", async () => {
    proc.getBuiltinModule = undefined;
    const fresh = await import('../../src/index.ts');
    const edge = fresh.createRequestStateSealer({ audience: 'booking-server', keys: [KEY_A] });
    const onNode = createRequestStateSealer({
      audience: 'booking-server',
      keys: [KEY_A],
      engine: 'node',
    });
    expect(await onNode.open(await edge.seal('st', BOOK_TRIP), BOOK_TRIP)).toBe('st');
    expect(() => fresh.createRequestStateSealer({ audience: 'a', engine: 'node' })).toThrow(
      /^createRequestStateSealer: engine 'node' needs node:crypto/,
    );
  });

  test('without WebCrypto either, creating a sealer is a TypeError', async () => {
    proc.getBuiltinModule = undefined;
    vi.stubGlobal('crypto', undefined);
    const fresh = await import('../../src/index.ts');
    expect(() => fresh.createRequestStateSealer({ audience: 'a', keys: [KEY_A] })).toThrow(
      /^createRequestStateSealer: this runtime has no WebCrypto/,
    );
  });
});

describe('both engines accept exactly the canonical base64url, and decode it alike', () => {
  const engines = [selectEngine('node', 'test'), selectEngine('webcrypto', 'test')];
  /** The bytes each engine decodes `text[start..]` to (as plain arrays), `undefined` if refused. */
  const decodedBy = (text: string, start = 0) =>
    engines.map((engine) => {
      const bytes = engine.decodeBase64Url(text, start);
      return bytes === undefined ? undefined : [...bytes];
    });

  test('hand-picked texts', () => {
    expect(decodedBy('')).toEqual([[], []]);
    expect(decodedBy('AA')).toEqual([[0], [0]]);
    expect(decodedBy('AAAA')).toEqual([
      [0, 0, 0],
      [0, 0, 0],
    ]);
    expect(decodedBy('ps1._-8', 4)).toEqual([
      [255, 239],
      [255, 239],
    ]);
    for (const bad of ['AB', 'AAB', 'AAAAA', 'AA==', 'A+AA', 'A/AA', 'AA A', 'AA\nA', 'AAé']) {
      expect(decodedBy(bad), bad).toEqual([undefined, undefined]);
    }
  });

  test('any text, from the alphabet and beyond', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(...'AQgw_-+/=. \nzé9'),
          maxLength: 40,
        }),
        fc.integer({ min: 0, max: 3 }),
        (text, offset) => {
          const start = Math.min(offset, text.length);
          const [node, web] = decodedBy(text, start);
          expect(node).toEqual(web);
          if (node !== undefined) {
            expect(Buffer.from(node).toString('base64url')).toBe(text.slice(start));
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
