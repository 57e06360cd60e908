import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

import { build } from 'tsdown';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { libraryConfig } from '../../../tsdown.base.ts';
import * as source from '../src/index.ts';
import type * as sourceInternal from '../src/internal.ts';
import { BOOK_TRIP, KEY_A } from './helpers.ts';

type Module = typeof source;
type InternalModule = typeof sourceInternal;

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const outDir = mkdtempSync(join(tmpdir(), 'parley-state-sealing-dual-'));
let esm: Module;
let cjs: Module;
let esmInternal: InternalModule;
let cjsInternal: InternalModule;

beforeAll(async () => {
  // Build the package the way `pnpm build` does (every entry, ESM and CJS), into a scratch directory.
  await build({
    ...libraryConfig(
      ['src/index.ts', 'src/internal.ts', 'src/cli.ts'].map((entry) => join(packageRoot, entry)),
    ),
    cwd: packageRoot,
    outDir,
    config: false,
    dts: false,
    sourcemap: false,
    logLevel: 'silent',
  });
  cjs = createRequire(import.meta.url)(join(outDir, 'index.cjs')) as Module;
  esm = (await import(pathToFileURL(join(outDir, 'index.mjs')).href)) as Module;
  cjsInternal = createRequire(import.meta.url)(join(outDir, 'internal.cjs')) as InternalModule;
  esmInternal = (await import(pathToFileURL(join(outDir, 'internal.mjs')).href)) as InternalModule;
}, 60_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('the built package', () => {
  test('imports no node:* module, statically or dynamically, so edge bundlers take it as is', () => {
    const files = readdirSync(outDir).filter(
      (file) => /\.(mjs|cjs)$/.test(file) && !file.startsWith('cli.'),
    );
    expect(files.length).toBeGreaterThan(1);
    for (const file of files) {
      const code = readFileSync(join(outDir, file), 'utf8');
      expect(code, file).not.toMatch(
        /\bfrom\s*["']node:|\b(import|require)\s*\(\s*["'`]node:|\bfrom\s*["'](crypto|buffer)["']/,
      );
    }
  });

  test('ESM and CJS export exactly what the source does', () => {
    expect(Object.keys(esm).sort()).toEqual(Object.keys(source).sort());
    expect(Object.keys(cjs).sort()).toEqual(Object.keys(source).sort());
  });

  test('a token sealed by one copy opens in the others, on either engine', async () => {
    const options = { audience: 'booking-server', keys: [KEY_A] };
    const token = await esm.createRequestStateSealer(options).seal('st', BOOK_TRIP);
    expect(
      await cjs
        .createRequestStateSealer({ ...options, engine: 'webcrypto' })
        .open(token, BOOK_TRIP),
    ).toBe('st');
    expect(await source.createRequestStateSealer(options).open(token, BOOK_TRIP)).toBe('st');
  });

  test('a RequestStateError from one copy is instanceof the class of every other', async () => {
    const fromCjs = await cjs
      .createRequestStateSealer({ audience: 'a', keys: [KEY_A] })
      .open('garbage', BOOK_TRIP)
      .catch((error: unknown) => error);
    for (const mod of [esm, cjs, source]) expect(fromCjs).toBeInstanceOf(mod.RequestStateError);
    expect(new esm.RequestStateError('expired')).toBeInstanceOf(cjs.RequestStateError);
  });

  test('the internal entry answers at once for the sealers its own format’s main entry makes', async () => {
    const options = { audience: 'booking-server', keys: [KEY_A] };
    for (const [name, main, internal] of [
      ['esm', esm, esmInternal],
      ['cjs', cjs, cjsInternal],
    ] as const) {
      const sealer = main.createRequestStateSealer(options);
      const token = await internal.sealAtOnce(sealer, 'st', BOOK_TRIP);
      expect(internal.openAtOnce(sealer, token, BOOK_TRIP), name).toBe('st');
      expect(await sealer.open(token, BOOK_TRIP), name).toBe('st');
    }
    // Another copy's sealer is not one it knows (the server bundles one copy of both entries).
    expect(() =>
      esmInternal.sealAtOnce(cjs.createRequestStateSealer(options), 'st', BOOK_TRIP),
    ).toThrow(TypeError);
  });

  test('the bin runs straight from its shebang and prints a key', async () => {
    expect(readFileSync(join(outDir, 'cli.mjs'), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
    const { stdout } = await promisify(execFile)(process.execPath, [
      join(outDir, 'cli.mjs'),
      'keygen',
    ]);
    expect(stdout).toMatch(/^[0-9a-f]{64}\n$/);
  });
});
