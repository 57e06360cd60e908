import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import * as z from 'zod';

import { compileResponseType, type ResponseType } from '../src/index.ts';
import './fixtures/arktypeMeta.ts';

// What elicitation cannot carry is refused before anything reaches the wire, with the same
// TypeError naming the field, whichever library the schema came from: the rules live in one
// place (fieldRules.ts) and every library is read into the same representation first.

function refusal(schema: ResponseType): string {
  try {
    compileResponseType(schema);
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  throw new Error('expected a TypeError');
}

const vs = toStandardJsonSchema;
const PATTERN =
  "has a pattern (a regular expression): the spec's subset has no pattern keyword, so a client " +
  'could not enforce it; drop it, or enforce it on the server with a refinement (zod .refine(), ' +
  'valibot v.check(), ArkType .narrow()).';

/** The zod, valibot and ArkType spellings; `undefined` where the library refuses it itself. */
type Spellings = [ResponseType, ResponseType, ResponseType | undefined];

const cases: [string, string, Spellings][] = [
  [
    'a nested object',
    "field 'address' is a nested object; elicitation schemas are flat. Ask for its fields at the top level.",
    [
      z.object({ address: z.object({ street: z.string() }) }),
      vs(v.object({ address: v.object({ street: v.string() }) })),
      type({ address: { street: 'string' } }),
    ],
  ],
  [
    'an array of objects',
    "field 'address' is an array of objects; elicitation schemas are flat.",
    [
      z.object({ address: z.array(z.object({ street: z.string() })) }),
      vs(v.object({ address: v.array(v.object({ street: v.string() })) })),
      type({ address: type({ street: 'string' }).array() }),
    ],
  ],
  [
    'a pattern',
    `field 'code' ${PATTERN}`,
    [
      z.object({ code: z.string().regex(/^[A-Z]{3}$/) }),
      vs(v.object({ code: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)) })),
      type({ code: /^[A-Z]{3}$/ }),
    ],
  ],
  [
    'a union that is not a set of options',
    "field 'id' is a union that is not a set of string options; the spec's subset has no composition beyond enums.",
    [
      z.object({ id: z.union([z.string(), z.number()]) }),
      vs(v.object({ id: v.union([v.string(), v.number()]) })),
      type({ id: 'string | number' }),
    ],
  ],
  [
    'a nullable field',
    "field 'note' is nullable; answers are never null. Make the field optional instead, so it may be left out.",
    [
      z.object({ note: z.string().nullable() }),
      vs(v.object({ note: v.nullable(v.string()) })),
      type({ note: 'string | null' }),
    ],
  ],
  [
    'a Date',
    "field 'due' is a Date, which JSON cannot carry; ask for a string with format 'date' " +
      "('YYYY-MM-DD') or 'date-time' instead (zod z.iso.date(), valibot v.isoDate()).",
    [z.object({ due: z.date() }), vs(v.object({ due: v.date() })), type({ due: 'Date' })],
  ],
  [
    'a bigint',
    "field 'count' is a bigint, which JSON cannot carry; ask for an integer number instead.",
    [
      z.object({ count: z.bigint() }),
      vs(v.object({ count: v.bigint() })),
      type({ count: 'bigint' }),
    ],
  ],
  [
    'an exclusive bound on a non-integer',
    "field 'price' has an exclusive bound (> 0); the spec has only the inclusive minimum, which " +
      'cannot express it for non-integers. Use an inclusive bound (>=) with the value you mean, ' +
      'or make the field an integer.',
    [
      z.object({ price: z.number().gt(0) }),
      vs(v.object({ price: v.pipe(v.number(), v.gtValue(0)) })),
      type({ price: 'number > 0' }),
    ],
  ],
  [
    'a multipleOf',
    "field 'step' has a multipleOf (a step), which the spec's restricted subset cannot express.",
    [
      z.object({ step: z.number().multipleOf(5) }),
      vs(v.object({ step: v.pipe(v.number(), v.multipleOf(5)) })),
      type({ step: 'number % 5' }),
    ],
  ],
  [
    'a list of free text',
    "field 'tags' is an array of strings; only lists of options (an array of an enum) can be " +
      'sent, as a multi-select.',
    [
      z.object({ tags: z.array(z.string()) }),
      vs(v.object({ tags: v.array(v.string()) })),
      type({ tags: 'string[]' }),
    ],
  ],
  [
    'a tuple',
    "field 'pair' is a tuple; only lists of options (multi-select) can be sent.",
    [
      z.object({ pair: z.tuple([z.string(), z.string()]) }),
      vs(v.object({ pair: v.tuple([v.string(), v.string()]) })),
      type({ pair: ['string', 'string'] }),
    ],
  ],
  [
    'a record',
    "field 'extra' is a record; elicitation schemas have a fixed set of fields.",
    [
      z.object({ extra: z.record(z.string(), z.string()) }),
      vs(v.object({ extra: v.record(v.string(), v.string()) })),
      type({ extra: 'Record<string, string>' }),
    ],
  ],
  [
    'a non-string option',
    "field 'agree' has the option the boolean true; options are strings (ask for a boolean for yes/no).",
    [
      z.object({ agree: z.literal(true) }),
      vs(v.object({ agree: v.literal(true) })),
      type({ agree: 'true' }),
    ],
  ],
  [
    'optionTitles without options',
    "field 'name' has optionTitles but no options; put them on an enum or a list of literals.",
    [
      z.object({ name: z.string().meta({ optionTitles: { a: 'A' } }) }),
      vs(v.object({ name: v.pipe(v.string(), v.metadata({ optionTitles: { a: 'A' } })) })),
      type({ name: type('string').configure({ optionTitles: { a: 'A' } }) }),
    ],
  ],
  [
    'optionTitles for a value that is not an option',
    "field 'size' has optionTitles for 'xl', which is not one of its options 's', 'm'.",
    [
      z.object({ size: z.enum(['s', 'm']).meta({ optionTitles: { xl: 'Extra large' } }) }),
      vs(
        v.object({
          size: v.pipe(v.picklist(['s', 'm']), v.metadata({ optionTitles: { xl: 'Extra large' } })),
        }),
      ),
      // ArkType sorts its options, so its list reads 'm', 's'; see the last assertion.
      type({ size: type("'s' | 'm'").configure({ optionTitles: { xl: 'Extra large' } }) }),
    ],
  ],
  [
    'a default that is not a valid answer',
    "field 'seats' has a default that is not a valid answer: must be at most 3, got 5.",
    [
      z.object({ seats: z.number().max(3).default(5) }),
      vs(v.object({ seats: v.optional(v.pipe(v.number(), v.maxValue(3)), 5) })),
      // ArkType checks a default against its type when the type is defined (arktypeSchemas).
      undefined,
    ],
  ],
  [
    'an object that is optional as a whole',
    'an object response type cannot be optional, nullable or defaulted as a whole; make its ' +
      'fields optional instead (declining already covers "no answer").',
    [
      z.object({ a: z.string() }).optional(),
      vs(v.optional(v.object({ a: v.string() }))),
      type({ a: 'string' }).or('undefined'),
    ],
  ],
  [
    'an object with a catchall',
    'the object has a catchall (a schema for keys beyond its fields: .catchall(), a rest schema, ' +
      'additionalProperties); elicitation schemas have a fixed set of fields.',
    [
      z.object({ a: z.string() }).catchall(z.string()),
      vs(v.objectWithRest({ a: v.string() }, v.string())),
      type({ a: 'string', '[string]': 'string' }),
    ],
  ],
];

describe.each(cases)('%s', (_name, reason, schemas) => {
  test('is refused with the same message from zod, valibot and ArkType', () => {
    const [zodSchema, valibotSchema, arkTypeSchema] = schemas;
    const fromZod = refusal(zodSchema);
    expect(fromZod).toBe(`compileResponseType: ${reason}`);
    expect(refusal(valibotSchema)).toBe(fromZod);
    if (arkTypeSchema === undefined) return;
    const fromArkType = refusal(arkTypeSchema);
    if (reason.includes("'s', 'm'")) {
      expect(fromArkType).toBe(fromZod?.replace("'s', 'm'", "'m', 's'"));
    } else {
      expect(fromArkType).toBe(fromZod);
    }
  });
});

test('a refusal names the wrapper field for a response type that is not an object', () => {
  for (const schema of [
    z.string().nullable(),
    vs(v.nullable(v.string())),
    type('string | null'),
  ] as ResponseType[]) {
    expect(refusal(schema)).toBe(
      "compileResponseType: field 'value' is nullable; answers are never null. Make the field " +
        'optional instead, so it may be left out.',
    );
  }
});
