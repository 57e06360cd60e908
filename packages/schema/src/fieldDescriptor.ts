import type { ElicitContentValue } from '@parley/core';

import type { StringFormat } from './formats.ts';

/** One option of a select field, with the label a user should see. */
export interface FieldOption {
  value: string;
  /** The display title; the value itself when the schema gave none. */
  title: string;
}

/**
 * One field of an elicitation schema, normalised so a renderer (a form, a terminal prompt) can
 * walk it without knowing the schema's spelling: a titled select reads the same whether the
 * schema used `enum` + `enumNames`, `oneOf` or `items.anyOf`. Answers are checked against these
 * descriptors on both sides, so what a form can show and what is accepted cannot drift apart.
 */
export interface FieldDescriptor {
  name: string;
  kind: 'string' | 'number' | 'integer' | 'boolean' | 'single-select' | 'multi-select';
  title?: string;
  description?: string;
  required: boolean;
  default?: ElicitContentValue;
  /** For `single-select` and `multi-select` fields. */
  options?: FieldOption[];
  format?: StringFormat;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}
