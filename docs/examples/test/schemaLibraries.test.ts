import { describe, expect, test } from 'vitest';

import { Client } from '@parley/client';
import type { ElicitationSchema } from '@parley/core';

import * as arktype from '../schemaLibraries/arktype.ts';
import * as refusals from '../schemaLibraries/refusals.ts';
import * as valibot from '../schemaLibraries/valibot.ts';
import * as zod from '../schemaLibraries/zod.ts';
import { eras, quoted, quotedJson, textOf } from './support.ts';

const libraries = [
  ['zod', zod],
  ['valibot', valibot],
  ['ArkType', arktype],
] as const;

describe.each(libraries)('%s', (library, example) => {
  describe.each(eras)('%s era', (mode) => {
    test('book_table sends the same schema and returns the typed answer', async () => {
      let sent: ElicitationSchema | undefined;
      await using client = new Client(
        example.createServer({ onWarning: () => {} }),
        {
          mode,
          elicitationHandler: (_message, responseType, params) => {
            if (params.mode === 'form') sent = params.requestedSchema;
            return responseType({ name: 'Ada', seating: 'terrace' });
          },
        },
      );
      await client.connect();
      const result = await client.callTool('book_table');
      expect(sent).toEqual(
        quotedJson('schemaLibraries/booking.schema.json'),
      );
      // ArkType sends the same fields in its own order: required ones first.
      expect(Object.keys(sent?.properties ?? {})).toEqual(
        library === 'ArkType'
          ? ['name', 'seating', 'partySize', 'email']
          : ['name', 'partySize', 'seating', 'email'],
      );
      expect(textOf(result)).toBe(
        quoted('schemaLibraries/booking.out.txt'),
      );
    });

    test('free_tables: parameters validated by the library, defaults filled', async () => {
      await using client = new Client(example.createServer(), { mode });
      await client.connect();
      const tools = await client.listTools();
      expect(
        tools.find((tool) => tool.name === 'free_tables')?.inputSchema,
      ).toMatchObject({
        type: 'object',
        properties: {
          seats: { type: 'integer', minimum: 1, maximum: 12 },
          terrace: { type: 'boolean', default: false },
        },
        required: ['seats'],
      });
      expect(
        textOf(await client.callTool('free_tables', { seats: 4 })),
      ).toBe('3 tables for 4');
      // SEP-1303: an argument error is a tool result the model reads and can correct.
      const refused = await client.callTool('free_tables', { seats: 13 });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(
        /^Invalid arguments for tool free_tables: seats: /,
      );
    });
  });
});

test('a nested object is refused with the same message by every library', () => {
  for (const ask of [
    refusals.withZod,
    refusals.withValibot,
    refusals.withArkType,
  ]) {
    expect(() => ask()).toThrow(TypeError);
    try {
      ask();
    } catch (error) {
      expect(String(error)).toBe(
        quoted('schemaLibraries/refusals.error.txt'),
      );
    }
  }
});
