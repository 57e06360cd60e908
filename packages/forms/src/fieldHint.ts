import type { FieldDescriptor } from '@parley/schema';

/**
 * The limits a field has, said before the person types ("whole number, 1–10", "at least 2
 * characters"), so the server's refusal is rarely needed. `undefined` when there are none.
 */
export function fieldHint(field: FieldDescriptor): string | undefined {
  switch (field.kind) {
    case 'string':
      return range(field.minLength, field.maxLength, 'character');
    case 'integer':
    case 'number': {
      const bounds = range(field.minimum, field.maximum);
      const kind = field.kind === 'integer' ? 'whole number' : undefined;
      return [kind, bounds].filter((part) => part !== undefined).join(', ') || undefined;
    }
    case 'multi-select': {
      const count = range(field.minItems, field.maxItems, 'option');
      return count === undefined ? undefined : `choose ${count}`;
    }
    case 'boolean':
    case 'single-select':
      return undefined;
  }
}

function range(
  min: number | undefined,
  max: number | undefined,
  noun?: string,
): string | undefined {
  const unit = (count: number): string =>
    noun === undefined ? '' : ` ${noun}${count === 1 ? '' : 's'}`;
  if (min !== undefined && max !== undefined) {
    return min === max ? `exactly ${min}${unit(min)}` : `${min}–${max}${unit(max)}`;
  }
  if (min !== undefined) return `at least ${min}${unit(min)}`;
  if (max !== undefined) return `at most ${max}${unit(max)}`;
  return undefined;
}
