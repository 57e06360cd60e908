import { describe, expect, test } from 'vitest';

import { UnsupportedCapabilityError, type ElicitFormParams } from '@parley/core';

import { elicitParamsFor, formFor } from '../../src/ask/versionSchemas.ts';
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

const TABLE: [string, Row[]][] = [
  ['2026-07-28', MODERN_AND_LATEST],
  ['2025-11-25', MODERN_AND_LATEST],
  ['2025-06-18', V2025_06_18],
  // No elicitation in the spec yet: a client that declares the capability anyway (the only kind
  // that gets here) is taken at its word, and asked as on 2025-06-18.
  ['2025-03-26', V2025_06_18],
  ['2024-11-05', V2025_06_18],
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
      // ctx.elicit takes no key: the request carries the one a task would give it.
      _meta: { 'dev.parley/askKey': 'elicitation' },
    });
    expect(reply.result).toMatchObject({ content: [{ text: '"level"' }] });
  });

  test('a multi-select ask is asked as yes/no fields, and the handler gets its list', async () => {
    const { server } = createRoundServer();
    const connection = await rawHandshake(server, {
      protocolVersion: '2025-06-18',
      capabilities: { elicitation: {} },
      answer: () => ({ action: 'accept', content: { 'value.bug': true, 'value.docs': false } }),
    });
    const reply = await connection.call('probe', { kind: 'multi' });
    await connection.close();
    expect(connection.pushed[0]?.params.requestedSchema).toEqual({
      type: 'object',
      properties: {
        'value.bug': { type: 'boolean', title: 'value: bug' },
        'value.docs': { type: 'boolean', title: 'value: docs' },
      },
    });
    expect(reply.result).toMatchObject({ content: [{ text: '["bug"]' }] });
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

describe('a pushed form for a client before 2025-11-25', () => {
  const tags = form({
    tags: {
      type: 'array',
      title: 'Tags',
      description: 'What it is about',
      items: {
        anyOf: [
          { const: 'bug', title: 'Bug' },
          { const: 'docs', title: 'Docs' },
        ],
      },
      minItems: 1,
      default: ['docs'],
    },
    note: { type: 'string' },
  });
  const required = {
    ...tags,
    requestedSchema: { ...tags.requestedSchema, required: ['tags', 'note'] },
  };

  test('asks each option of a multi-select as a yes/no field, ticked where the default has it', () => {
    expect(formFor(required, '2025-06-18').params).toEqual({
      message: 'Q',
      requestedSchema: {
        type: 'object',
        properties: {
          'tags.bug': {
            type: 'boolean',
            title: 'Tags: Bug',
            description: 'What it is about',
            default: false,
          },
          'tags.docs': {
            type: 'boolean',
            title: 'Tags: Docs',
            description: 'What it is about',
            default: true,
          },
          note: { type: 'string' },
        },
        required: ['note'],
      },
      // Which fields are asked otherwise than written, for a client to show why.
      _meta: { 'dev.parley/adapted': ['tags'] },
    });
  });

  test('reads the yes/no answers back into the list; other answers pass as they are', () => {
    const { restore } = formFor(tags, '2025-06-18');
    expect(
      restore({ action: 'accept', content: { 'tags.bug': true, 'tags.docs': false, note: 'x' } }),
    ).toEqual({ action: 'accept', content: { tags: ['bug'], note: 'x' } });
    expect(restore({ action: 'accept', content: { note: 'x' } })).toEqual({
      action: 'accept',
      content: { tags: [], note: 'x' },
    });
    expect(restore({ action: 'decline' })).toEqual({ action: 'decline' });
  });

  test('a version with multi-select, or a form without one, is sent as it is (or as elicitParamsFor makes it)', () => {
    expect(formFor(tags, '2025-11-25')).toMatchObject({ params: tags });
    expect(formFor(plainEnum, '2025-06-18').params).toEqual(
      elicitParamsFor(plainEnum, '2025-06-18'),
    );
  });

  test('refuses where a yes/no field would take the name of another field', () => {
    const clash = form({
      tags: { type: 'array', items: { type: 'string', enum: ['a'] } },
      'tags.a': { type: 'boolean' },
    });
    expect(() => formFor(clash, '2025-06-18')).toThrow(/no multi-select fields .* field 'tags'/);
  });
});
