import { InvalidAnswerError, type ElicitationSchema } from '@parley/core';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';

import {
  compileResponseType,
  createResponseType,
  describeFields,
  validateElicitationSchema,
} from '../src/index.ts';
import {
  answers,
  invalidValues,
  specs,
  wireSchema,
  zodSchema,
  type Spec,
} from './fixtures/fieldSpecs.ts';
import { arktypeExpressible, arktypeSchema, valibotSchema } from './fixtures/librarySpecs.ts';

// Property tests over generated schemas of the whole supported subset: strings with lengths
// and formats, numbers and integers with bounds, booleans, untitled / oneOf / enumNames single
// selects, untitled / anyOf multi-selects with item bounds, titles, defaults and required; and
// the same specs written in zod, valibot and ArkType, which must compile to the same wire schema.

/**
 * Each schema with one valid answer and one field to break: every invalid value of that field
 * (wrong types, null, nested objects, values outside the options, out of range, bad formats) is
 * tried in turn, and leaving it out when it is required.
 */
const mutated = specs
  .filter((list) => list.length > 0)
  .chain((list) =>
    fc.record({ list: fc.constant(list), valid: answers(list), index: fc.nat(list.length - 1) }),
  )
  .map(({ list, valid, index }) => {
    const spec = list[index] as Spec;
    const broken = invalidValues(spec).map((bad) => ({ ...valid.answer, [spec.name]: bad }));
    if (spec.required && spec.default === undefined) {
      const { [spec.name]: _left, ...rest } = valid.answer;
      broken.push(rest);
    }
    return { list, broken, field: spec.name };
  });

function refusedField(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof InvalidAnswerError)) throw error;
    return error.data?.field ?? '(none)';
  }
  return undefined;
}

describe('generated wire schemas', () => {
  test('are valid restricted schemas, and describeFields sees every field', () => {
    fc.assert(
      fc.property(specs, (list) => {
        const schema = wireSchema(list);
        expect(validateElicitationSchema(schema)).toBe(schema);
        expect(describeFields(schema).map((field) => field.name)).toEqual(list.map((s) => s.name));
      }),
    );
  });

  test('every valid answer is accepted and returns the expected value, defaults filled', () => {
    fc.assert(
      fc.property(
        specs.chain((list) => fc.tuple(fc.constant(list), answers(list))),
        ([list, { answer, expected }]) => {
          const schema = wireSchema(list);
          expect(compileResponseType(schema).parse(answer)).toEqual(expected);
          expect(createResponseType(schema)(answer)).toEqual({
            action: 'accept',
            content: expected,
          });
        },
      ),
    );
  });

  test('unknown keys are dropped by parse and refused by the builder', () => {
    fc.assert(
      fc.property(
        specs.chain((list) => fc.tuple(fc.constant(list), answers(list))),
        ([list, { answer, expected }]) => {
          const schema = wireSchema(list);
          const extra = { ...answer, 'not-a-field': 'x' };
          expect(compileResponseType(schema).parse(extra)).toEqual(expected);
          expect(refusedField(() => createResponseType(schema)(extra))).toBe('not-a-field');
        },
      ),
    );
  });

  test('every mutated answer is refused with an error naming the mutated field', () => {
    fc.assert(
      fc.property(mutated, ({ list, broken, field }) => {
        const schema = wireSchema(list);
        for (const answer of broken) {
          expect(refusedField(() => compileResponseType(schema).parse(answer))).toBe(field);
          expect(refusedField(() => createResponseType(schema)(answer))).toBe(field);
        }
      }),
    );
  });
});

/**
 * A wire schema in ArkType's canonical form: ArkType keeps its own order (required keys first,
 * options sorted), not the order the schema was written in, and drops bounds that constrain
 * nothing (a minimum length of 0).
 */
function canonical(schema: ElicitationSchema): unknown {
  const field = (raw: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...raw };
    if (out['minLength'] === 0) delete out['minLength'];
    if (out['minItems'] === 0) delete out['minItems'];
    if (Array.isArray(raw['enum'])) out['enum'] = [...(raw['enum'] as string[])].sort();
    if (Array.isArray(raw['oneOf'])) out['oneOf'] = sortByConst(raw['oneOf']);
    const items = raw['items'] as Record<string, unknown> | undefined;
    if (items !== undefined) out['items'] = field(items);
    if (Array.isArray(raw['anyOf'])) out['anyOf'] = sortByConst(raw['anyOf']);
    return out;
  };
  return {
    ...schema,
    properties: Object.fromEntries(
      Object.entries(schema.properties)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([name, raw]) => [name, field(raw as unknown as Record<string, unknown>)]),
    ),
    ...(schema.required === undefined ? {} : { required: [...schema.required].sort() }),
  };
}

function sortByConst(options: unknown[]): unknown[] {
  return [...(options as { const: string }[])].sort((a, b) => (a.const < b.const ? -1 : 1));
}

// Each library's schema for a list of specs, and what its wire schema is compared as.
const libraries = [
  { name: 'zod', schema: zodSchema, expressible: () => true, order: (s: ElicitationSchema) => s },
  {
    name: 'valibot',
    schema: valibotSchema,
    expressible: () => true,
    order: (s: ElicitationSchema) => s,
  },
  { name: 'ArkType', schema: arktypeSchema, expressible: arktypeExpressible, order: canonical },
] as const;

describe.each(libraries)('generated $name schemas', ({ schema, expressible, order }) => {
  test('compile to the same wire schema as the hand-written one', () => {
    fc.assert(
      fc.property(specs.filter(expressible), (list) => {
        expect(order(compileResponseType(schema(list)).requestedSchema)).toEqual(
          order(wireSchema(list, false)),
        );
      }),
    );
  });

  test('every valid answer is accepted by the library and returns the expected value', () => {
    fc.assert(
      fc.property(
        specs.filter(expressible).chain((list) => fc.tuple(fc.constant(list), answers(list))),
        ([list, { answer, expected }]) => {
          expect(compileResponseType(schema(list)).parse(answer)).toEqual(expected);
        },
      ),
    );
  });

  test('every mutated answer is refused with an error naming the mutated field', () => {
    fc.assert(
      fc.property(
        mutated.filter(({ list }) => expressible(list)),
        ({ list, broken, field }) => {
          const compiled = compileResponseType(schema(list));
          for (const answer of broken) {
            expect(refusedField(() => compiled.parse(answer))).toBe(field);
          }
        },
      ),
    );
  });
});
