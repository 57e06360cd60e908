import { describe, expect, test } from 'vitest';

import { UnsupportedCapabilityError, type ElicitFormParams } from '@parley/core';

import { elicitParamsFor } from '../../src/ask/versionSchemas.ts';
import { createRoundServer } from '../fixtures/roundServer.ts';
import { rawHandshake } from '../helpers/rawHandshake.ts';

/**
 * Elicitations as each negotiated protocol version defines them: what goes out, or the clear
 * refusal before the wire when the version cannot express it.
 */

const form = (properties: ElicitFormParams['requestedSchema']['properties']): ElicitFormParams => ({
  mode: 'form',
  message: 'Q',
  requestedSchema: { type: 'object', properties },
});

const titled = form({
  level: {
    type: 'string',
    oneOf: [
      { const: 'lo', title: 'Low' },
      { const: 'hi', title: 'High' },
    ],
    default: 'lo',
  },
});
const plainEnum = form({ level: { type: 'string', enum: ['lo', 'hi'] } });
const multi = form({ tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } });
const defaults = form({
  name: { type: 'string', default: 'Ada' },
  age: { type: 'integer', default: 30 },
  ok: { type: 'boolean', default: true },
});
const url = {
  mode: 'url' as const,
  message: 'Sign in',
  url: 'https://example.com',
  elicitationId: 'e1',
};

type Row = [string, ElicitFormParams | typeof url, unknown];

const MODERN_AND_LATEST: Row[] = [
  ['titled options', titled, titled],
  ['plain options', plainEnum, plainEnum],
  ['multi-select', multi, multi],
  ['defaults', defaults, defaults],
  ['URL mode', url, url],
];

const V2025_06_18: Row[] = [
  [
    'titled options become enum + enumNames, without the string default',
    titled,
    {
      message: 'Q',
      requestedSchema: {
        type: 'object',
        properties: { level: { type: 'string', enum: ['lo', 'hi'], enumNames: ['Low', 'High'] } },
      },
    },
  ],
  [
    'plain options, without mode',
    plainEnum,
    { message: 'Q', requestedSchema: plainEnum.requestedSchema },
  ],
  ['multi-select is refused', multi, /no multi-select fields .* field 'tags'/],
  [
    'only the boolean default stays',
    defaults,
    {
      message: 'Q',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          age: { type: 'integer' },
          ok: { type: 'boolean', default: true },
        },
      },
    },
  ],
  ['URL mode is refused', url, /no URL-mode elicitation/],
];

const NO_ELICITATION: Row[] = [
  ['a form is refused', plainEnum, /has no elicitation/],
  ['URL mode is refused', url, /has no elicitation/],
];

const TABLE: [string, Row[]][] = [
  ['2026-07-28', MODERN_AND_LATEST],
  ['2025-11-25', MODERN_AND_LATEST],
  ['2025-06-18', V2025_06_18],
  ['2025-03-26', NO_ELICITATION],
  ['2024-11-05', NO_ELICITATION],
];

describe.each(TABLE)('elicitations for a client on %s', (version, rows) => {
  test.each(rows)('%s', (_label, params, expected) => {
    if (expected instanceof RegExp) {
      let thrown: unknown;
      try {
        elicitParamsFor(params, version);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(UnsupportedCapabilityError);
      expect((thrown as Error).message).toMatch(expected);
      expect((thrown as Error).message).toContain(version);
      return;
    }
    expect(elicitParamsFor(params, version)).toEqual(expected);
  });
});

describe('on the wire, with a client that negotiated 2025-06-18', () => {
  async function probe(kind: string) {
    const { server } = createRoundServer();
    const connection = await rawHandshake(server, {
      protocolVersion: '2025-06-18',
      capabilities: { elicitation: {} },
      answer: () => ({ action: 'accept', content: { value: 'level' } }),
    });
    const reply = await connection.call('probe', { kind });
    await connection.close();
    return { reply, pushed: connection.pushed };
  }

  test('titled options arrive as enum + enumNames, with no mode', async () => {
    const { reply, pushed } = await probe('titled');
    expect(pushed[0]?.params).toEqual({
      message: 'Probe titled',
      requestedSchema: {
        type: 'object',
        properties: { value: { type: 'string', enum: ['level'], enumNames: ['Level'] } },
        required: ['value'],
      },
    });
    expect(reply.result).toMatchObject({ content: [{ text: '"level"' }] });
  });

  test('a multi-select ask is refused before the wire, as an error the tool could catch', async () => {
    const { reply, pushed } = await probe('multi');
    expect(pushed).toEqual([]);
    expect(reply.result).toMatchObject({
      isError: true,
      content: [
        {
          text: expect.stringMatching(
            /negotiated MCP 2025-06-18, whose elicitation schemas have no multi-select fields/,
          ),
        },
      ],
    });
  });

  test('a string default is left out; a boolean default stays', async () => {
    expect((await probe('textDefault')).pushed[0]?.params.requestedSchema).toEqual({
      type: 'object',
      properties: { name: { type: 'string', title: 'Name' } },
    });
    expect((await probe('boolDefault')).pushed[0]?.params.requestedSchema).toEqual({
      type: 'object',
      properties: { ok: { type: 'boolean', title: 'OK', default: true } },
    });
  });
});
