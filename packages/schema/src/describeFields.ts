import type { ElicitationSchema } from '@parley/core';

import type { FieldDescriptor } from './fieldDescriptor.ts';
import { readSchema } from './schemaReader.ts';

/**
 * The fields of a received `requestedSchema`, normalised for a renderer: one descriptor per
 * property, in schema order, with option titles taken from `oneOf`, `items.anyOf` or
 * `enum` + `enumNames` (the value itself when untitled), and `required` resolved.
 *
 * Lenient, because the schema came from someone else's server: keywords outside the spec's
 * subset are ignored rather than refused. Throws a `TypeError` only for a field that cannot be
 * answered at all (no known type, options that are not strings, a nested object).
 */
export function describeFields(schema: ElicitationSchema): FieldDescriptor[] {
  return readSchema(schema, 'lenient', 'describeFields');
}
