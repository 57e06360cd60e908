import type { ElicitationSchema } from '@parley/core';
import { createResponseType, type FieldDescriptor } from '@parley/schema';

import { askField, fieldChecker, fieldLabel, type FieldAnswer } from './fieldPrompt.ts';
import { isDismissed, type Dismissed, type Prompter } from './prompter.ts';
import { typedValue, type PropertySchema } from './toolArguments.ts';
import { UsageError } from './usage.ts';

/**
 * Required arguments the command line left out, asked for before the call from the tool's
 * input schema (or a prompt's argument list), one prompt each: typed like an elicitation field
 * where the property is one (text, number, yes/no, a list of options), checked against its
 * limits while the prompt is open, and asked again until it fits.
 */

interface JsonSchemaProperty extends PropertySchema {
  title?: unknown;
  description?: unknown;
  pattern?: unknown;
  exclusiveMinimum?: unknown;
  exclusiveMaximum?: unknown;
}

export interface ArgumentSchema {
  properties?: Record<string, JsonSchemaProperty>;
  required?: string[];
}

function asArgumentSchema(inputSchema: unknown): ArgumentSchema {
  return typeof inputSchema === 'object' && inputSchema !== null
    ? (inputSchema as ArgumentSchema)
    : {};
}

/** The required arguments `args` does not have, in the schema's order. */
export function missingArguments(inputSchema: unknown, args: Record<string, unknown>): string[] {
  const { required = [] } = asArgumentSchema(inputSchema);
  return required.filter((name) => !Object.hasOwn(args, name));
}

/** A prompt's argument list as the input schema it stands for (prompt arguments are text). */
export function promptArgumentSchema(
  promptArguments: readonly { name: string; description?: string; required?: boolean }[],
): ArgumentSchema {
  return {
    properties: Object.fromEntries(
      promptArguments.map((argument) => [
        argument.name,
        {
          type: 'string',
          ...(argument.description !== undefined ? { description: argument.description } : {}),
        },
      ]),
    ),
    required: promptArguments
      .filter((argument) => argument.required === true)
      .map((argument) => argument.name),
  };
}

/** What JSON Schema says beyond what an elicitation field checks, as a refusal or `undefined`. */
function extraProblem(
  name: string,
  property: JsonSchemaProperty,
  value: unknown,
): string | undefined {
  if (typeof value === 'string' && typeof property.pattern === 'string') {
    let pattern: RegExp | undefined;
    try {
      pattern = new RegExp(property.pattern, 'u');
    } catch {
      pattern = undefined; // A pattern JavaScript cannot read: the server checks it.
    }
    if (pattern !== undefined && !pattern.test(value))
      return `${name} must match ${property.pattern}`;
  }
  if (typeof value === 'number') {
    if (typeof property.exclusiveMinimum === 'number' && value <= property.exclusiveMinimum)
      return `${name} must be more than ${property.exclusiveMinimum}, got ${value}`;
    if (typeof property.exclusiveMaximum === 'number' && value >= property.exclusiveMaximum)
      return `${name} must be less than ${property.exclusiveMaximum}, got ${value}`;
  }
  return undefined;
}

/**
 * One argument as an elicitation field when its schema is one (a flat string, number, integer,
 * boolean, enum or list of options); `undefined` for the rest (objects, free arrays, unions).
 */
function asField(
  name: string,
  property: JsonSchemaProperty,
): { field: FieldDescriptor; schema: ElicitationSchema } | undefined {
  const schema = {
    type: 'object',
    properties: { [name]: property },
    required: [name],
  } as unknown as ElicitationSchema;
  try {
    const [field] = createResponseType(schema).fields;
    return field === undefined ? undefined : { field, schema };
  } catch {
    return undefined;
  }
}

async function askOne(
  prompter: Prompter,
  name: string,
  property: JsonSchemaProperty,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  const asked = asField(name, property);
  if (asked !== undefined) {
    const check = fieldChecker(asked.schema, asked.field);
    const answer: FieldAnswer | Dismissed = await askField(prompter, asked.field, {
      check: (value) => check(value) ?? extraProblem(name, property, value),
      ...(signal !== undefined ? { signal } : {}),
    });
    return answer;
  }
  // Not a form field: typed as on the command line (JSON where the schema wants structure).
  const label = fieldLabel({
    name,
    kind: 'string',
    required: true,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  });
  const problem = (input: string): string | undefined => {
    if (input.trim() === '') return `${name} is required`;
    try {
      return extraProblem(name, property, typedValue(name, input, property));
    } catch (error) {
      if (error instanceof UsageError) return error.message.replace(/\.$/, '');
      throw error;
    }
  };
  const answer = await prompter.text({
    message: `${label} · JSON`,
    validate: problem,
    ...(signal !== undefined ? { signal } : {}),
  });
  return isDismissed(answer) ? answer : typedValue(name, answer, property);
}

/**
 * Ask for the required arguments `args` lacks; resolves to the completed arguments, or to how
 * the person left (then nothing is called).
 */
export async function askMissingArguments(
  prompter: Prompter,
  heading: string,
  inputSchema: unknown,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<Record<string, unknown> | Dismissed> {
  const missing = missingArguments(inputSchema, args);
  if (missing.length === 0) return args;
  prompter.question(
    heading,
    `Not on the command line: ${missing.join(', ')}. Fill ${missing.length === 1 ? 'it' : 'them'} in here (or give ${missing.map((name) => `${name}=…`).join(' ')} next time).`,
    'Ctrl-D or Esc: do not call it',
  );
  const values = await askArguments(prompter, inputSchema, missing, signal);
  return isDismissed(values) ? values : { ...args, ...values };
}

/**
 * Ask for the arguments `names` of `inputSchema`, one prompt each, every one of them required;
 * resolves to their values, or to how the person left.
 */
export async function askArguments(
  prompter: Prompter,
  inputSchema: unknown,
  names: readonly string[],
  signal?: AbortSignal,
): Promise<Record<string, unknown> | Dismissed> {
  const { properties = {} } = asArgumentSchema(inputSchema);
  const values: Record<string, unknown> = {};
  for (const name of names) {
    const value = await askOne(prompter, name, properties[name] ?? {}, signal);
    if (isDismissed(value)) return value;
    // Never empty: each prompt asks for a required value.
    if (value !== undefined) values[name] = value;
  }
  return values;
}
