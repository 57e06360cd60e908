import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { build } from 'tsdown';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { libraryConfig } from '../../../tsdown.base.ts';
import * as source from '../src/index.ts';

type CoreModule = typeof source;

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const outDir = mkdtempSync(join(tmpdir(), 'parley-core-dual-'));
let esm: CoreModule;
let cjs: CoreModule;

const errorClassNames = [
  'ParleyError',
  'EraMismatchError',
  'UnsupportedCapabilityError',
  'RoundsExceededError',
  'InvalidAnswerError',
  'InvalidRequestStateError',
  'InvalidInputResponsesError',
  'UnsupportedProtocolVersionError',
] as const;

function sampleOf(mod: CoreModule, name: (typeof errorClassNames)[number]): Error {
  switch (name) {
    case 'ParleyError':
      return new mod.ParleyError('internal', 'x');
    case 'EraMismatchError':
      return new mod.EraMismatchError({
        kind: 'tool',
        name: 't',
        protocolVersion: '2025-11-25',
        used: 'inputRequired',
      });
    case 'UnsupportedCapabilityError':
      return new mod.UnsupportedCapabilityError({
        feature: 'roots',
        requiredCapabilities: { roots: {} },
      });
    case 'RoundsExceededError':
      return new mod.RoundsExceededError('tools/call', {
        maxRounds: 1,
        lastResult: { resultType: 'input_required', requestState: 's' },
      });
    case 'InvalidAnswerError':
      return new mod.InvalidAnswerError({ reason: 'r' });
    case 'InvalidRequestStateError':
      return new mod.InvalidRequestStateError({ reason: 'r' });
    case 'InvalidInputResponsesError':
      return new mod.InvalidInputResponsesError({ reason: 'r' });
    case 'UnsupportedProtocolVersionError':
      return new mod.UnsupportedProtocolVersionError({ supported: [], requested: 'x' });
  }
}

beforeAll(async () => {
  // Build the real package (ESM + CJS) the way `pnpm build` does, into a scratch directory.
  await build({
    ...libraryConfig([join(packageRoot, 'src/index.ts')]),
    cwd: packageRoot,
    outDir,
    config: false,
    dts: false,
    sourcemap: false,
    logLevel: 'silent',
  });
  cjs = createRequire(import.meta.url)(join(outDir, 'index.cjs')) as CoreModule;
  esm = (await import(pathToFileURL(join(outDir, 'index.mjs')).href)) as CoreModule;
}, 60_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('two copies of @parley/core loaded at once (ESM beside CJS)', () => {
  test('they really are separate copies', () => {
    expect(cjs.ParleyError).not.toBe(esm.ParleyError);
    expect(cjs.ParleyError).not.toBe(source.ParleyError);
  });

  test('both builds export exactly what the source does', () => {
    expect(Object.keys(cjs).sort()).toEqual(Object.keys(source).sort());
    expect(Object.keys(esm).sort()).toEqual(Object.keys(source).sort());
  });

  test.each(errorClassNames)(
    'a %s from the CJS build is instanceof the ESM class, and back',
    (name) => {
      const fromCjs = sampleOf(cjs, name);
      const fromEsm = sampleOf(esm, name);
      const fromSource = sampleOf(source, name);
      for (const mod of [cjs, esm, source]) {
        expect(fromCjs).toBeInstanceOf(mod[name]);
        expect(fromEsm).toBeInstanceOf(mod[name]);
        expect(fromSource).toBeInstanceOf(mod[name]);
        expect(fromCjs).toBeInstanceOf(mod.ParleyError);
      }
    },
  );

  test('a subclass from one copy is not mistaken for a sibling class of another copy', () => {
    const era = sampleOf(cjs, 'EraMismatchError');
    expect(era).not.toBeInstanceOf(esm.InvalidAnswerError);
    expect(sampleOf(esm, 'ParleyError')).not.toBeInstanceOf(cjs.EraMismatchError);
  });

  test('the wire mapping recognises errors from the other copy', () => {
    expect(esm.toJsonRpcError(sampleOf(cjs, 'InvalidRequestStateError'))).toEqual({
      code: -32602,
      message: 'Invalid or expired requestState',
      data: { reason: 'invalid_request_state' },
    });
  });
});

const resultClassNames = [
  'AcceptedElicitation',
  'DeclinedElicitation',
  'CancelledElicitation',
  'ToolResult',
  'InputRequiredToolResult',
] as const;

function resultOf(mod: CoreModule, name: (typeof resultClassNames)[number]): object {
  switch (name) {
    case 'AcceptedElicitation':
      return new mod.AcceptedElicitation({ city: 'Lisbon' });
    case 'DeclinedElicitation':
      return new mod.DeclinedElicitation();
    case 'CancelledElicitation':
      return new mod.CancelledElicitation();
    case 'ToolResult':
      return new mod.ToolResult({ content: [{ type: 'text', text: 'done' }] });
    case 'InputRequiredToolResult':
      return new mod.InputRequiredToolResult({ resultType: 'input_required', requestState: 's' });
  }
}

describe('result classes across the two copies', () => {
  test.each(resultClassNames)(
    'a %s from one copy is instanceof the class of every copy',
    (name) => {
      for (const made of [resultOf(cjs, name), resultOf(esm, name), resultOf(source, name)]) {
        for (const mod of [cjs, esm, source]) expect(made).toBeInstanceOf(mod[name]);
      }
    },
  );

  test('an ask from the CJS copy is an InputRequiredToolResult and a ToolResult to the ESM copy', () => {
    const ask = resultOf(cjs, 'InputRequiredToolResult');
    expect(ask).toBeInstanceOf(esm.InputRequiredToolResult);
    expect(ask).toBeInstanceOf(esm.ToolResult);
  });

  test('a final result is never mistaken for an ask, nor one outcome for another', () => {
    expect(resultOf(cjs, 'ToolResult')).not.toBeInstanceOf(esm.InputRequiredToolResult);
    expect(resultOf(esm, 'DeclinedElicitation')).not.toBeInstanceOf(cjs.CancelledElicitation);
    expect(resultOf(esm, 'AcceptedElicitation')).not.toBeInstanceOf(cjs.DeclinedElicitation);
    expect({ action: 'accept', data: 1 }).not.toBeInstanceOf(esm.AcceptedElicitation);
  });

  test("an author's subclass without a brand of its own still works by prototype", () => {
    class Mine extends source.ToolResult {}
    expect(new Mine()).toBeInstanceOf(Mine);
    expect(new Mine()).toBeInstanceOf(cjs.ToolResult);
    expect(new source.ToolResult()).not.toBeInstanceOf(Mine);
  });
});
