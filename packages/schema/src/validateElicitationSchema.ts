import type { ElicitationSchema } from '@parley/core';

import { readSchema } from './schemaReader.ts';

/**
 * Checks that `schema` is a restricted elicitation schema a client can render: a flat object
 * of string, number, integer, boolean and (titled or untitled) single- and multi-select fields,
 * only the spec's keywords, and every `default` a valid answer (SEP-1034). Returns it typed, or
 * throws a `TypeError` naming the field and the reason.
 *
 * A top-level `title` is let through (servers send it and most clients ignore it); the lint
 * flags it, because some strict clients refuse it.
 */
export function validateElicitationSchema(schema: unknown): ElicitationSchema {
  readSchema(schema, 'strict', 'validateElicitationSchema');
  return schema as ElicitationSchema;
}
