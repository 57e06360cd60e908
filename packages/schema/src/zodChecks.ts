/**
 * zod 4 checks (`.min()`, `.email()`, `.int()`, `.gt()` …) turned into the spec's keywords.
 * Read from `_zod.def` structurally, so schemas from any copy of zod 4 work.
 *
 * Checks the wire cannot carry but the server can still enforce (`.refine()`, and `.trim()`-style
 * overwrites) are let through: answers to zod response types are parsed with the zod schema
 * itself, so they hold on the server. Checks that only make sense as wire constraints (a regex,
 * an exclusive bound on a non-integer, `multipleOf`) are refused, so the form a client shows
 * never promises less than the server will accept.
 */

import type { StringFormat } from './formats.ts';
import { isPlainObject } from './values.ts';

export interface CheckDef {
  check: string;
  [key: string]: unknown;
}

/** The checks of a zod def, the def itself first when it is one (`z.email()`, `z.int()`). */
export function checkDefs(def: Record<string, unknown>): CheckDef[] {
  const defs: CheckDef[] = [];
  if (typeof def['check'] === 'string') defs.push(def as CheckDef);
  for (const check of Array.isArray(def['checks']) ? def['checks'] : []) {
    const checkDef: unknown = (check as { _zod?: { def?: unknown } } | null)?._zod?.def;
    if (isPlainObject(checkDef) && typeof checkDef['check'] === 'string') {
      defs.push(checkDef as CheckDef);
    }
  }
  return defs;
}

// Enforced by zod on the server; nothing to send.
const SERVER_ONLY = new Set(['custom', 'overwrite']);

const FORMATS: Record<string, StringFormat> = {
  email: 'email',
  url: 'uri',
  date: 'date',
  datetime: 'date-time',
};

type Fail = (reason: string) => never;

export interface StringKeywords {
  minLength?: number;
  maxLength?: number;
  format?: StringFormat;
}

export function stringKeywords(defs: readonly CheckDef[], fail: Fail): StringKeywords {
  const out: StringKeywords = {};
  for (const def of defs) {
    switch (def.check) {
      case 'min_length':
        out.minLength = Math.max(out.minLength ?? 0, def['minimum'] as number);
        break;
      case 'max_length':
        out.maxLength = Math.min(out.maxLength ?? Infinity, def['maximum'] as number);
        break;
      case 'length_equals':
        out.minLength = Math.max(out.minLength ?? 0, def['length'] as number);
        out.maxLength = Math.min(out.maxLength ?? Infinity, def['length'] as number);
        break;
      case 'string_format': {
        const format = FORMATS[def['format'] as string];
        if (format === undefined) return fail(stringFormatReason(def['format']));
        if (out.format !== undefined && out.format !== format) {
          fail(`has two formats ('${out.format}' and '${format}'); a field has at most one.`);
        }
        out.format = format;
        break;
      }
      default:
        if (!SERVER_ONLY.has(def.check)) fail(uncheckedReason(def.check));
    }
  }
  return out;
}

function stringFormatReason(format: unknown): string {
  const pattern =
    "the spec's subset has no pattern keyword, so a client could not enforce it; drop it, or " +
    'enforce it on the server with .refine()';
  if (format === 'regex') return `uses .regex(): ${pattern}.`;
  return (
    `has the string format '${String(format)}', which cannot be sent (the spec allows email, ` +
    `uri, date and date-time): ${pattern}.`
  );
}

function uncheckedReason(check: string): string {
  return `has a '${check}' check, which the spec's restricted subset cannot express.`;
}

export interface NumberKeywords {
  type: 'number' | 'integer';
  minimum?: number;
  maximum?: number;
}

// Bounds implied by a zod number format; safeint and float64 are left implicit.
const FORMAT_BOUNDS: Record<string, [number, number] | undefined> = {
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
};

/**
 * Number keywords. The spec has only inclusive `minimum`/`maximum`: for integers an exclusive
 * bound converts exactly (`.gt(0)` is `minimum: 1`), for other numbers it cannot, and is
 * refused with a pointer to `.min()`.
 */
export function numberKeywords(defs: readonly CheckDef[], fail: Fail): NumberKeywords {
  const integer = defs.some(
    (def) => def.check === 'number_format' && String(def['format']).includes('int'),
  );
  const out: NumberKeywords = { type: integer ? 'integer' : 'number' };
  const lower = (value: number): void => {
    const bound = integer ? Math.ceil(value) : value;
    out.minimum = Math.max(out.minimum ?? -Infinity, bound);
  };
  const upper = (value: number): void => {
    const bound = integer ? Math.floor(value) : value;
    out.maximum = Math.min(out.maximum ?? Infinity, bound);
  };
  for (const def of defs) {
    switch (def.check) {
      case 'number_format': {
        const bounds = FORMAT_BOUNDS[def['format'] as string];
        if (bounds) {
          lower(bounds[0]);
          upper(bounds[1]);
        }
        break;
      }
      case 'greater_than':
      case 'less_than': {
        const value = def['value'] as number;
        const isLower = def.check === 'greater_than';
        if (def['inclusive'] === true) (isLower ? lower : upper)(value);
        else if (integer)
          (isLower ? lower : upper)(isLower ? Math.floor(value) + 1 : Math.ceil(value) - 1);
        else fail(exclusiveReason(isLower, value));
        break;
      }
      case 'multiple_of':
        fail("uses .multipleOf()/.step(), which the spec's restricted subset cannot express.");
        break;
      default:
        if (!SERVER_ONLY.has(def.check)) fail(uncheckedReason(def.check));
    }
  }
  return out;
}

function exclusiveReason(isLower: boolean, value: number): string {
  const [sign, methods, keyword, inclusive] = isLower
    ? ['>', '.gt() or .positive()', 'minimum', '.min()']
    : ['<', '.lt() or .negative()', 'maximum', '.max()'];
  return (
    `has an exclusive bound (${sign} ${value}, from ${methods}); the spec has only the ` +
    `inclusive ${keyword}, which cannot express it for non-integers. Use ${inclusive} with the ` +
    'value you mean, or .int().'
  );
}

export interface ArrayKeywords {
  minItems?: number;
  maxItems?: number;
}

export function arrayKeywords(defs: readonly CheckDef[], fail: Fail): ArrayKeywords {
  const out: ArrayKeywords = {};
  for (const def of defs) {
    switch (def.check) {
      case 'min_length':
        out.minItems = Math.max(out.minItems ?? 0, def['minimum'] as number);
        break;
      case 'max_length':
        out.maxItems = Math.min(out.maxItems ?? Infinity, def['maximum'] as number);
        break;
      case 'length_equals':
        out.minItems = Math.max(out.minItems ?? 0, def['length'] as number);
        out.maxItems = Math.min(out.maxItems ?? Infinity, def['length'] as number);
        break;
      default:
        if (!SERVER_ONLY.has(def.check)) fail(uncheckedReason(def.check));
    }
  }
  return out;
}
