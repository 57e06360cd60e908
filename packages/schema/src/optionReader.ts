import type { FieldDescriptor, FieldOption } from './fieldDescriptor.ts';
import { STRING_FORMATS, isStringFormat } from './formats.ts';
import { KEYS_BY_SHAPE, assign, type ReadContext } from './readContext.ts';
import { describeValue, isPlainObject, ownValue, quoteList } from './values.ts';

/**
 * Reading `type: 'string'` and `type: 'array'` fields, where the spec's spellings of options
 * live: `enum` (+ the deprecated `enumNames`), `oneOf`, `items.enum` and `items.anyOf`.
 */

/** `enum` as a non-empty list of distinct strings. */
function enumValues(ctx: ReadContext, field: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    return ctx.fail(field, 'has an enum that is not a non-empty list of strings.');
  }
  const bad = value.find((item) => typeof item !== 'string');
  if (bad !== undefined) {
    return ctx.fail(field, `has the option ${describeValue(bad)}; options must be strings.`);
  }
  return ctx.distinct(field, value as string[]);
}

/** `oneOf` / `items.anyOf`: a list of `{ const, title }`. */
function titledOptions(
  ctx: ReadContext,
  field: string,
  value: unknown,
  key: string,
): FieldOption[] {
  if (!Array.isArray(value) || value.length === 0) {
    return ctx.fail(field, `has a ${key} that is not a non-empty list of { const, title }.`);
  }
  const options = new Map<string, string>();
  for (const entry of value) {
    if (!isPlainObject(entry) || typeof ownValue(entry, 'const') !== 'string') {
      return ctx.fail(field, `has a ${key} entry without a string const.`);
    }
    ctx.onlyKeys(field, entry, ['const', 'title']);
    const constValue = entry['const'] as string;
    const title = ownValue(entry, 'title');
    if (typeof title !== 'string' && ctx.strict) {
      ctx.fail(field, `has the ${key} option '${constValue}' without a string title.`);
    }
    if (options.has(constValue)) {
      if (ctx.strict) ctx.fail(field, `lists the option '${constValue}' twice.`);
      continue;
    }
    options.set(constValue, typeof title === 'string' ? title : constValue);
  }
  return [...options].map(([optionValue, title]) => ({ value: optionValue, title }));
}

/** A free-text field, or a single select spelled `enum` (+ `enumNames`) or `oneOf`. */
export function readStringField(
  ctx: ReadContext,
  raw: Record<string, unknown>,
  base: FieldDescriptor,
): FieldDescriptor {
  const name = base.name;
  const hasEnum = ownValue(raw, 'enum') !== undefined;
  const hasOneOf = ownValue(raw, 'oneOf') !== undefined;
  if (hasEnum && hasOneOf && ctx.strict) {
    ctx.fail(name, 'has both enum and oneOf; use oneOf for titled options.');
  }
  if (hasOneOf) {
    ctx.onlyKeys(name, raw, KEYS_BY_SHAPE.oneOf);
    const options = titledOptions(ctx, name, raw['oneOf'], 'oneOf');
    return { ...base, kind: 'single-select', options };
  }
  if (hasEnum) {
    ctx.onlyKeys(name, raw, KEYS_BY_SHAPE.enum);
    const values = enumValues(ctx, name, raw['enum']);
    const names = ownValue(raw, 'enumNames');
    const titled =
      Array.isArray(names) &&
      names.length === values.length &&
      names.every((title) => typeof title === 'string');
    if (names !== undefined && !titled && ctx.strict) {
      ctx.fail(name, 'has enumNames that are not one string per enum value.');
    }
    const options = values.map((value, index) => ({
      value,
      title: titled ? (names[index] as string) : value,
    }));
    return { ...base, kind: 'single-select', options };
  }
  ctx.onlyKeys(name, raw, KEYS_BY_SHAPE.string);
  const field: FieldDescriptor = { ...base, kind: 'string' };
  const format = ownValue(raw, 'format');
  if (isStringFormat(format)) field.format = format;
  else if (format !== undefined && ctx.strict) {
    ctx.fail(
      name,
      `has format ${describeValue(format)}; the spec allows ${quoteList(STRING_FORMATS)}.`,
    );
  }
  assign(field, 'minLength', ctx.count(name, raw, 'minLength'));
  assign(field, 'maxLength', ctx.count(name, raw, 'maxLength'));
  ctx.range(name, field.minLength, field.maxLength, 'length');
  return field;
}

/** A multi-select: `items.enum` or `items.anyOf` (and, leniently, `items.oneOf`). */
export function readArrayField(
  ctx: ReadContext,
  raw: Record<string, unknown>,
  base: FieldDescriptor,
): FieldDescriptor {
  const name = base.name;
  ctx.onlyKeys(name, raw, KEYS_BY_SHAPE.array);
  const items = ownValue(raw, 'items');
  if (!isPlainObject(items)) {
    return ctx.fail(
      name,
      'is an array without items; only multi-select lists of options can be sent.',
    );
  }
  const field: FieldDescriptor = { ...base, kind: 'multi-select' };
  const titledKey = ['anyOf', 'oneOf'].find((key) => ownValue(items, key) !== undefined);
  if (titledKey === 'anyOf' || (titledKey === 'oneOf' && !ctx.strict)) {
    ctx.onlyKeys(name, items, ['anyOf']);
    field.options = titledOptions(ctx, name, items[titledKey], `items.${titledKey}`);
  } else if (ownValue(items, 'enum') !== undefined) {
    ctx.onlyKeys(name, items, ['type', 'enum']);
    if (ownValue(items, 'type') !== 'string' && ctx.strict) {
      ctx.fail(name, "has items with an enum but without type 'string'.");
    }
    field.options = enumValues(ctx, name, items['enum']).map((value) => ({ value, title: value }));
  } else if (ownValue(items, 'type') === 'object') {
    return ctx.fail(name, 'is an array of objects; elicitation schemas are flat.');
  } else {
    return ctx.fail(
      name,
      titledKey === 'oneOf'
        ? 'uses items.oneOf; titled multi-select uses items.anyOf.'
        : 'is an array without options; only multi-select lists of options (items.enum or ' +
            'items.anyOf) can be sent.',
    );
  }
  assign(field, 'minItems', ctx.count(name, raw, 'minItems'));
  assign(field, 'maxItems', ctx.count(name, raw, 'maxItems'));
  ctx.range(name, field.minItems, field.maxItems, 'number of items');
  return field;
}
