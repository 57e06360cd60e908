import type { ElicitContentValue, ElicitationSchema } from '@parley/core';

import { checkContent } from './content.ts';
import type { FieldDescriptor } from './fieldDescriptor.ts';
import { readSchema } from './schemaReader.ts';
import { describeValue, isPlainObject } from './values.ts';

/** An accepted elicitation result, ready to return from a client's elicitation handler. */
export interface AcceptedResponse {
  action: 'accept';
  content: Record<string, ElicitContentValue>;
}

/** Builds answers to one received `requestedSchema`, checked before they are sent. */
export interface ResponseBuilder {
  /**
   * Build validated accepted content (defaults applied, SEP-1034). If the schema is a single
   * `value` wrapper, a bare scalar/array may be passed and is wrapped. Throws
   * `InvalidAnswerError` naming the field on an invalid value.
   */
  (values: Record<string, unknown> | ElicitContentValue): AcceptedResponse;
  readonly requestedSchema: ElicitationSchema;
  readonly fields: FieldDescriptor[];
  /** Same checks, returns the content only. */
  validate(values: Record<string, unknown>): Record<string, ElicitContentValue>;
}

const API = 'createResponseType';

function isWrapper(fields: readonly FieldDescriptor[]): boolean {
  return fields.length === 1 && fields[0]?.name === 'value';
}

/**
 * The client side of a response type: from the `requestedSchema` a server sent, a callable that
 * turns the values a user (or a test) gave into checked content, plus the normalised field
 * descriptors a form or terminal renderer can walk.
 *
 * Defaults fill fields left out (SEP-1034: clients that support defaults fill them in on
 * accept). Keys the schema does not have are refused rather than dropped, so a misspelt field
 * name in a handler fails here instead of silently losing the answer. The schema is read
 * leniently (extra keywords from real servers are ignored); a `TypeError` means a field cannot
 * be answered at all.
 */
export function createResponseType(requestedSchema: ElicitationSchema): ResponseBuilder {
  const fields = readSchema(requestedSchema, 'lenient', API);
  const wrapper = isWrapper(fields);

  const validate = (values: unknown): Record<string, ElicitContentValue> => {
    if (wrapper && !isPlainObject(values)) return checkContent({ value: values }, fields, 'refuse');
    if (values !== undefined && !isPlainObject(values)) {
      throw new TypeError(
        `${API}: expected an object of field values, got ${describeValue(values)}` +
          (fields.length === 0
            ? '.'
            : ` (the fields are ${fields.map((f) => `'${f.name}'`).join(', ')}).`),
      );
    }
    return checkContent(values, fields, 'refuse');
  };

  const builder = (values: Record<string, unknown> | ElicitContentValue): AcceptedResponse => ({
    action: 'accept',
    content: validate(values),
  });
  return Object.assign(builder, {
    requestedSchema,
    // A copy: a renderer that edits its descriptors must not change what is accepted.
    fields: structuredClone(fields),
    validate: (values: Record<string, unknown>) => validate(values),
  });
}
