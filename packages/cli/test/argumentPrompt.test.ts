import { describe, expect, test } from 'vitest';

import {
  askMissingArguments,
  missingArguments,
  promptArgumentSchema,
} from '../src/argumentPrompt.ts';
import { CANCELLED, DECLINED } from '../src/prompter.ts';
import { scriptedPrompter, type ScriptedAnswer } from './helpers/scriptedPrompter.ts';

/** Required tool arguments the command line left out, asked for from the input schema. */

const schema = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'Booking id', pattern: '^BK-\\d{4}$' },
    seats: { type: 'integer', minimum: 1, maximum: 9 },
    window: { type: 'boolean', description: 'A window seat' },
    cabin: { type: 'string', enum: ['economy', 'business'] },
    meta: { type: 'object' },
    tags: { type: 'array', items: { type: 'string' } },
    note: { type: 'string' },
  },
  required: ['id', 'seats', 'window', 'cabin', 'meta', 'tags'],
};

async function ask(args: Record<string, unknown>, answers: ScriptedAnswer[]) {
  const prompter = scriptedPrompter(answers);
  const result = await askMissingArguments(prompter, 'book needs 6 arguments', schema, args);
  expect(prompter.remaining, 'every scripted answer was used').toEqual([]);
  return { result, prompter };
}

test('the missing ones are the required ones not given, in the schema’s order', () => {
  expect(missingArguments(schema, { seats: 2, note: 'x' })).toEqual([
    'id',
    'window',
    'cabin',
    'meta',
    'tags',
  ]);
  expect(missingArguments({ type: 'object' }, {})).toEqual([]);
  expect(missingArguments(undefined, {})).toEqual([]);
});

describe('asking', () => {
  test('each is typed by its schema, checked while the prompt is open, and asked again until it fits', async () => {
    const { result, prompter } = await ask({ note: 'kept' }, [
      'BK-1',
      'BK-0001',
      '12',
      'two',
      '2',
      true,
      'business',
      '[1]',
      '{"a":1}',
      '["x","y"]',
    ]);
    expect(result).toEqual({
      note: 'kept',
      id: 'BK-0001',
      seats: 2,
      window: true,
      cabin: 'business',
      meta: { a: 1 },
      tags: ['x', 'y'],
    });
    expect(prompter.prompts.map((prompt) => `${prompt.kind} ${prompt.message}`)).toEqual([
      'text id · Booking id',
      'text seats · whole number, 1–9',
      'confirm window · A window seat',
      'select cabin',
      'text meta · JSON',
      'text tags · JSON',
    ]);
    expect(prompter.screen.filter((line) => line.startsWith('!'))).toEqual([
      '! id must match ^BK-\\d{4}$',
      '! seats must be at most 9, got 12',
      '! seats: enter a whole number',
      '! meta must be JSON (object), got "[1]"',
    ]);
    expect(prompter.screen.slice(0, 3)).toEqual([
      'question: book needs 6 arguments',
      '  Not on the command line: id, seats, window, cabin, meta, tags. Fill them in here (or give id=… seats=… window=… cabin=… meta=… tags=… next time).',
      '  (Ctrl-D or Esc: do not call it)',
    ]);
  });

  test('Ctrl-D or Esc on any of them stops: nothing is called', async () => {
    expect((await ask({}, [DECLINED])).result).toBe(DECLINED);
    expect((await ask({}, ['BK-0001', CANCELLED])).result).toBe(CANCELLED);
  });

  test('nothing missing asks nothing', async () => {
    const complete = {
      id: 'BK-0001',
      seats: 1,
      window: false,
      cabin: 'economy',
      meta: {},
      tags: [],
    };
    const { result, prompter } = await ask(complete, []);
    expect(result).toBe(complete);
    expect(prompter.screen).toEqual([]);
  });
});

test('a prompt’s argument list reads as a schema of text arguments', () => {
  expect(
    promptArgumentSchema([
      { name: 'quarter', description: 'Q1 to Q4', required: true },
      { name: 'style' },
    ]),
  ).toEqual({
    properties: {
      quarter: { type: 'string', description: 'Q1 to Q4' },
      style: { type: 'string' },
    },
    required: ['quarter'],
  });
});
