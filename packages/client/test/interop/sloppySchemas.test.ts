import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { Client, UnreadableSchemaError, type ClientOptions } from '../../src/index.ts';
import { SLOPPY, UNREADABLE_REASON } from '../fixtures/sloppySchemas.ts';
import { startSloppyV2Server } from '../fixtures/sloppyV2Server.ts';

/**
 * One client, one verdict: a schema near the spec (FastMCP's multi-select without
 * `items.type`, fields without `type`, bounds as numeric strings…) is read the same way whether
 * a handshake-era server pushed it (a v1 SDK server, a real child process over stdio) or a
 * modern server returned it in an `InputRequiredResult` (the SDK v2 server on 127.0.0.1): the
 * handler is asked, the same answer reaches the server, and each defect is warned about once,
 * naming the server. A schema with no one reading is a typed error naming the field, and a
 * handshake-era server hears an error answer.
 */

const v1Main = fileURLToPath(new URL('../fixtures/sloppyV1ServerMain.ts', import.meta.url));
let modern: { url: string; close(): Promise<void> };

beforeAll(async () => {
  modern = await startSloppyV2Server();
});
afterAll(() => modern?.close());

const ERAS = {
  handshake: {
    server: 'sloppy-v1',
    open: (options: ClientOptions) =>
      new Client(
        {
          command: process.execPath,
          args: ['--conditions=@parley/source', '--import', 'tsx', v1Main],
          stderr: 'ignore',
        },
        { ...options, mode: 'handshake' },
      ),
  },
  modern: {
    server: 'sloppy-v2',
    open: (options: ClientOptions) => new Client(modern.url, { ...options, mode: 'modern' }),
  },
} as const;

const textOf = (result: { content: unknown[] }): string =>
  result.content.map((block) => (block as { text?: string }).text ?? '').join('');

describe.each(['handshake', 'modern'] as const)('near-spec schemas (%s era)', (era) => {
  const { server, open } = ERAS[era];

  test.each(Object.keys(SLOPPY))('%s is read, answered and warned about', async (name) => {
    const sloppy = SLOPPY[name]!;
    const warnings: string[] = [];
    const seen: unknown[] = [];
    await using client = open({
      onWarning: (message) => warnings.push(message),
      elicitationHandler: (message, responseType, params) => {
        seen.push({ message, schema: params.mode === 'url' ? undefined : params.requestedSchema });
        return responseType(sloppy.values);
      },
    });
    await client.connect();
    expect(client.era).toBe(era);
    const result = await client.callTool('ask', { case: name });
    expect(JSON.parse(textOf(result))).toEqual({
      answer: { action: 'accept', content: sloppy.content },
    });
    expect(warnings).toEqual(sloppy.defects.map((defect) => `server "${server}" sent ${defect}`));
    // The handler saw the schema as read: on the spec, in both eras.
    expect(seen).toHaveLength(1);
    expect((seen[0] as { message: string }).message).toBe(`Pick (${name})`);

    // Asked again, the same defects are not warned about twice.
    await client.callTool('ask', { case: name });
    expect(warnings).toHaveLength(sloppy.defects.length);
  });

  test('the handler sees the multi-select as the spec writes it', async () => {
    let schema: unknown;
    await using client = open({
      onWarning: () => {},
      elicitationHandler: (_message, responseType, params) => {
        if (params.mode !== 'url') schema = params.requestedSchema;
        return responseType({ tags: ['green'] });
      },
    });
    await client.connect();
    await client.callTool('ask', { case: 'fastmcp_multi_select' });
    expect(schema).toEqual({
      type: 'object',
      properties: {
        tags: {
          type: 'array',
          title: 'Tags',
          items: { type: 'string', enum: ['red', 'green', 'blue'] },
        },
      },
      required: ['tags'],
    });
  });

  test('an unreadable schema is a typed error naming the field; the handler is not asked', async () => {
    let asked = 0;
    await using client = open({
      onWarning: () => {},
      elicitationHandler: () => {
        asked += 1;
        return { action: 'decline' };
      },
    });
    await client.connect();
    const error = await client.callTool('ask', { case: 'unreadable' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreadableSchemaError);
    const ask = era === 'modern' ? "'pick'" : '"Pick (unreadable)"';
    expect((error as UnreadableSchemaError).message).toBe(
      `Server "${server}" sent a requestedSchema the client cannot read, so ${ask} was not answered: ${UNREADABLE_REASON}.`,
    );
    expect((error as UnreadableSchemaError).data).toMatchObject({
      server,
      field: 'when',
      call: { method: 'tools/call', name: 'ask' },
      round: 1,
    });
    expect(asked).toBe(0);
    if (era === 'handshake') {
      // The server heard an error answer to its request (invalid params), with the reason.
      const heard = JSON.parse(textOf(await client.callTool('last_heard'))) as {
        error: { code: number; message: string; data: unknown };
      };
      expect(heard.error.code).toBe(-32602);
      expect(heard.error.message).toContain(UNREADABLE_REASON);
      expect(heard.error.data).toEqual({
        field: 'when',
        reason: 'has no type, and no enum, oneOf, anyOf or items to tell it',
      });
    }
  });
});
