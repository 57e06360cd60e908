import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, test } from 'vitest';
import * as z from 'zod';

import { compileResponseType } from '../src/index.ts';

// What compileResponseType refuses at run time because of the response type's shape or labels
// is a compile-time error too, for every schema library; what it accepts type-checks.

describe('shapes elicitation can carry', () => {
  test('flat objects of scalars, enums, enum lists and formats, from every library', () => {
    compileResponseType(
      z.object({
        name: z.string(),
        age: z.number().int().optional(),
        ok: z.boolean().default(true),
        level: z.enum(['low', 'high']),
        tags: z.array(z.enum(['bug', 'docs'])),
        day: z.iso.date(),
      }),
    );
    compileResponseType(toStandardJsonSchema(v.object({ name: v.string(), n: v.number() })));
    compileResponseType(type({ name: 'string', 'n?': 'number' }));
    compileResponseType(z.string());
    compileResponseType(z.array(z.enum(['a', 'b'])));
  });

  test('nested objects, arrays of objects, free-text lists and other unions are refused', () => {
    // @ts-expect-error a nested object
    compileResponseType(z.object({ address: z.object({ city: z.string() }) }));
    // @ts-expect-error an array of objects
    compileResponseType(z.object({ people: z.array(z.object({ name: z.string() })) }));
    // @ts-expect-error a free-text list
    compileResponseType(z.object({ notes: z.array(z.string()) }));
    // @ts-expect-error a union that is not an enum
    compileResponseType(z.object({ id: z.union([z.string(), z.object({ n: z.number() })]) }));
    // @ts-expect-error a top-level array of objects
    compileResponseType(z.array(z.object({ a: z.string() })));
    // @ts-expect-error the same from valibot
    compileResponseType(toStandardJsonSchema(v.object({ a: v.object({ b: v.string() }) })));
    // @ts-expect-error the same from ArkType
    compileResponseType(type({ a: { b: 'string' } }));
  });
});

describe('labels of the value wrapper', () => {
  test('label a scalar, an enum or a list', () => {
    compileResponseType(String, { responseTitle: 'Name' });
    compileResponseType(['low', 'high'], {
      responseTitle: 'Level',
      responseDescription: 'How bad',
    });
    compileResponseType(z.number().int(), { responseTitle: 'Count' });
    compileResponseType([['a', 'b']], { responseTitle: 'Tags' });
  });

  test('not a response type with its own fields, or none', () => {
    // @ts-expect-error an object titles its fields
    compileResponseType(z.object({ name: z.string() }), { responseTitle: 'Person' });
    // @ts-expect-error the same from valibot
    compileResponseType(toStandardJsonSchema(v.object({ a: v.string() })), { responseTitle: 'A' });
    // @ts-expect-error approve-only has no field
    compileResponseType(null, { responseDescription: 'Approve' });
  });
});
