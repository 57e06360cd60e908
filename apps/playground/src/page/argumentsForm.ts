import { h, uniqueId } from './dom.ts';

/**
 * The arguments of the chosen tool, prompt or resource template: one labelled field per
 * top-level property (text, number, a choice, yes/no), and a JSON text area for anything
 * deeper. Empty optional fields are left out of the call.
 */

export interface FieldSpec {
  name: string;
  title?: string;
  description?: string;
  kind: 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';
  options?: string[];
  required: boolean;
}

type JsonSchema = Record<string, unknown>;

function kindOf(schema: JsonSchema): Pick<FieldSpec, 'kind' | 'options'> {
  if (Array.isArray(schema.enum) && schema.enum.every((value) => typeof value === 'string')) {
    return { kind: 'enum', options: schema.enum as string[] };
  }
  switch (schema.type) {
    case 'string':
      return { kind: 'string' };
    case 'number':
      return { kind: 'number' };
    case 'integer':
      return { kind: 'integer' };
    case 'boolean':
      return { kind: 'boolean' };
    default:
      return { kind: 'json' };
  }
}

/** The fields of a tool's input schema: its top-level properties. */
export function fieldsOfSchema(schema: JsonSchema | undefined): FieldSpec[] {
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema?.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    ...(typeof property.title === 'string' ? { title: property.title } : {}),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    ...kindOf(property),
    required: required.has(name),
  }));
}

export interface ArgumentsForm {
  element: HTMLElement;
  /** The values to send, or what is wrong with them (the first field focused). */
  read(): { values: Record<string, unknown> } | { problem: string };
}

interface Field {
  spec: FieldSpec;
  control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
}

function control(spec: FieldSpec, id: string, describedBy: string | undefined): Field['control'] {
  const common = { id, name: spec.name, required: spec.required, 'aria-describedby': describedBy };
  switch (spec.kind) {
    case 'enum':
      return h(
        'select',
        common,
        spec.required ? null : h('option', { value: '' }, '(not set)'),
        ...(spec.options ?? []).map((option) => h('option', { value: option }, option)),
      );
    case 'boolean':
      return h(
        'select',
        common,
        spec.required ? null : h('option', { value: '' }, '(not set)'),
        h('option', { value: 'true' }, 'true'),
        h('option', { value: 'false' }, 'false'),
      );
    case 'number':
    case 'integer':
      return h('input', { ...common, type: 'number', step: spec.kind === 'integer' ? '1' : 'any' });
    case 'json':
      return h('textarea', { ...common, rows: '3', spellcheck: 'false', placeholder: 'JSON' });
    case 'string':
      return h('input', { ...common, type: 'text' });
  }
}

function valueOf(field: Field): { value?: unknown; problem?: string } {
  const raw = field.control.value.trim();
  const label = field.spec.title ?? field.spec.name;
  if (raw === '') return field.spec.required ? { problem: `${label} is required.` } : {};
  switch (field.spec.kind) {
    case 'number':
    case 'integer': {
      const value = Number(raw);
      if (!Number.isFinite(value) || (field.spec.kind === 'integer' && !Number.isInteger(value))) {
        return {
          problem: `${label} must be ${field.spec.kind === 'integer' ? 'a whole number' : 'a number'}.`,
        };
      }
      return { value };
    }
    case 'boolean':
      return { value: raw === 'true' };
    case 'json':
      try {
        return { value: JSON.parse(raw) as unknown };
      } catch {
        return { problem: `${label} must be JSON.` };
      }
    case 'enum':
    case 'string':
      return { value: field.control.value };
  }
}

/** A form for `specs`; `legend` names what the arguments are for. */
export function createArgumentsForm(legend: string, specs: FieldSpec[]): ArgumentsForm {
  const fields: Field[] = [];
  const fieldset = h('fieldset', { class: 'arguments' }, h('legend', {}, legend));
  if (specs.length === 0) fieldset.append(h('p', { class: 'hint' }, 'No arguments.'));
  for (const spec of specs) {
    const id = uniqueId(`arg-${spec.name}`);
    const hintId = spec.description !== undefined ? `${id}-hint` : undefined;
    const input = control(spec, id, hintId);
    fields.push({ spec, control: input });
    fieldset.append(
      h(
        'div',
        { class: 'field' },
        h(
          'label',
          { for: id },
          spec.title ?? spec.name,
          spec.required ? h('span', { class: 'required' }, ' (required)') : null,
        ),
        input,
        hintId !== undefined ? h('p', { class: 'hint', id: hintId }, spec.description!) : null,
      ),
    );
  }
  return {
    element: fieldset,
    read() {
      const values: Record<string, unknown> = {};
      for (const field of fields) {
        const { value, problem } = valueOf(field);
        if (problem !== undefined) {
          field.control.focus();
          return { problem };
        }
        if (value !== undefined) values[field.spec.name] = value;
      }
      return { values };
    },
  };
}
