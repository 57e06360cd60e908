import type { ElicitationSchema, ElicitFormParams, ElicitUrlParams } from '@parley/core';
import { createResponseType } from '@parley/schema';
import { describe, expect, test } from 'vitest';

import { createElicitationHandler } from '../src/elicitationPrompt.ts';
import { NO_CHOICE } from '../src/fieldPrompt.ts';
import { oneAtATime } from '../src/oneAtATime.ts';
import { CANCELLED, DECLINED } from '../src/prompter.ts';
import type { InputContext } from '@parley/client';
import { inputContext } from './helpers/inputContext.ts';
import { scriptedPrompter, type ScriptedAnswer } from './helpers/scriptedPrompter.ts';

const passengerForm: ElicitationSchema = {
  type: 'object',
  properties: {
    passenger: {
      type: 'string',
      title: 'Passenger',
      description: 'Full name as on the passport',
      minLength: 1,
    },
    confirm: { type: 'boolean', title: 'Book it', description: 'Book this flight', default: true },
  },
  required: ['passenger'],
};

const taskForm: ElicitationSchema = {
  type: 'object',
  properties: {
    title: { type: 'string', title: 'Title', minLength: 1 },
    description: { type: 'string', title: 'Description', default: '' },
    priority: {
      type: 'string',
      title: 'Priority',
      oneOf: [
        { const: 'low', title: 'Low — whenever' },
        { const: 'medium', title: 'Medium — this week' },
        { const: 'high', title: 'High — today' },
      ],
      default: 'medium',
    },
  },
  required: ['title'],
};

function form(message: string, requestedSchema: ElicitationSchema): ElicitFormParams {
  return { mode: 'form', message, requestedSchema };
}

/** One elicitation answered by a scripted person; what was sent, and what the screen showed. */
async function elicit(
  params: ElicitFormParams | ElicitUrlParams,
  answers: ScriptedAnswer[],
  { validates = true, ctx = inputContext() }: { validates?: boolean; ctx?: InputContext } = {},
) {
  const prompter = scriptedPrompter(answers, { validates });
  const handler = createElicitationHandler(prompter, oneAtATime());
  const schema =
    params.mode === 'url' ? { type: 'object' as const, properties: {} } : params.requestedSchema;
  const sent = await handler(params.message, createResponseType(schema), params, ctx);
  expect(prompter.remaining, 'every scripted answer was used').toEqual([]);
  return { sent, prompter };
}

describe('the question', () => {
  test('comes first: where it comes from, the route it took, the server’s message and the keys; then the first field, at once', async () => {
    const { prompter } = await elicit(form('Who is travelling?', passengerForm), ['Ada', true]);
    expect(prompter.screen.slice(0, 5)).toEqual([
      'question: book_flight asks (round 1)',
      "  route: elicitation (the client's own form)",
      '  Who is travelling?',
      '  (Ctrl-D declines · Esc cancels)',
      '? Passenger · Full name as on the passport',
    ]);
    expect(prompter.prompts[0]).toMatchObject({ kind: 'text' });
  });

  test('Ctrl-D on a field declines the question', async () => {
    const { sent, prompter } = await elicit(form('Who is travelling?', passengerForm), [DECLINED]);
    expect(sent).toEqual({ action: 'decline' });
    expect(prompter.prompts).toHaveLength(1);
    expect(prompter.screen).toContain('warn: Declined.');
  });

  test('Ctrl-D on a later field declines too, sending none of the fields', async () => {
    const { sent } = await elicit(form('Who is travelling?', passengerForm), ['Ada', DECLINED]);
    expect(sent).toEqual({ action: 'decline' });
  });

  test('Esc (or Ctrl-C) on any field cancels', async () => {
    expect((await elicit(form('Who?', passengerForm), [CANCELLED])).sent).toEqual({
      action: 'cancel',
    });
    const midway = await elicit(form('Who?', passengerForm), ['Ada', CANCELLED]);
    expect(midway.sent).toEqual({ action: 'cancel' });
    expect(midway.prompter.screen).toContain('warn: Cancelled.');
  });

  test('a form without fields is a yes/no: yes accepts, no declines', async () => {
    const empty: ElicitationSchema = { type: 'object', properties: {} };
    const yes = await elicit(form('Go ahead?', empty), [true]);
    expect(yes.sent).toEqual({ action: 'accept', content: {} });
    expect(yes.prompter.prompts[0]).toMatchObject({
      kind: 'confirm',
      message: 'Accept?',
      initialValue: false,
    });
    expect((await elicit(form('Go ahead?', empty), [false])).sent).toEqual({ action: 'decline' });
    expect((await elicit(form('Go ahead?', empty), [CANCELLED])).sent).toEqual({
      action: 'cancel',
    });
  });
});

describe('fields', () => {
  test('text and yes/no, labelled with title and description', async () => {
    const { sent, prompter } = await elicit(form('Who is travelling?', passengerForm), [
      'Ada Lovelace',
      false,
    ]);
    expect(sent).toEqual({
      action: 'accept',
      content: { passenger: 'Ada Lovelace', confirm: false },
    });
    expect(prompter.prompts).toMatchObject([
      { kind: 'text', message: 'Passenger · Full name as on the passport' },
      { kind: 'confirm', message: 'Book it · Book this flight', initialValue: true },
    ]);
  });

  test('defaults are pre-filled, and a field left empty gets its default', async () => {
    const { sent, prompter } = await elicit(form('Task?', taskForm), ['Write docs', '', 'medium']);
    expect(sent).toEqual({
      action: 'accept',
      content: { title: 'Write docs', description: '', priority: 'medium' },
    });
    expect(prompter.prompts[1]).toMatchObject({
      kind: 'text',
      message: 'Description',
      initialValue: '',
    });
    expect(prompter.prompts[2]).toMatchObject({ kind: 'select', initialValue: 'medium' });
  });

  test('a yes/no without a default starts on No', async () => {
    const schema: ElicitationSchema = {
      type: 'object',
      properties: { value: { type: 'boolean', title: 'Cancel it' } },
      required: ['value'],
    };
    const { sent, prompter } = await elicit(form('Cancel booking BK-0001?', schema), [true]);
    expect(prompter.prompts[0]).toMatchObject({
      kind: 'confirm',
      message: 'Cancel it',
      initialValue: false,
    });
    expect(sent).toEqual({ action: 'accept', content: { value: true } });
  });

  test('a text default is the initial value; keeping it sends it', async () => {
    const schema: ElicitationSchema = {
      type: 'object',
      properties: { city: { type: 'string', title: 'City', default: 'Paris' } },
    };
    const { sent, prompter } = await elicit(form('Where?', schema), ['Paris']);
    expect(prompter.prompts[0]).toMatchObject({ kind: 'text', initialValue: 'Paris' });
    expect(sent).toEqual({ action: 'accept', content: { city: 'Paris' } });
  });

  test('single select shows option titles and sends the value', async () => {
    const { sent, prompter } = await elicit(form('Task?', taskForm), ['Docs', '', 'high']);
    const select = prompter.prompts[2];
    expect(select?.kind === 'select' && select.options).toEqual([
      { value: 'low', label: 'Low — whenever', hint: 'low' },
      { value: 'medium', label: 'Medium — this week', hint: 'medium' },
      { value: 'high', label: 'High — today', hint: 'high' },
    ]);
    expect(sent).toMatchObject({ content: { priority: 'high' } });
  });

  test('an optional single select without a default can be left empty', async () => {
    const schema: ElicitationSchema = {
      type: 'object',
      properties: { size: { type: 'string', title: 'Size', enum: ['s', 'm', 'l'] } },
    };
    const first = await elicit(form('Size?', schema), [NO_CHOICE]);
    expect(first.sent).toEqual({ action: 'accept', content: {} });
    expect(first.prompter.prompts[0]).toMatchObject({ message: 'Size (optional)' });
    expect(
      first.prompter.prompts[0]?.kind === 'select' &&
        first.prompter.prompts[0].options.at(-1)?.label,
    ).toBe('(none)');
    expect((await elicit(form('Size?', schema), ['m'])).sent).toEqual({
      action: 'accept',
      content: { size: 'm' },
    });
  });

  test('multi-select shows titles, pre-ticks the default and sends the values', async () => {
    const schema: ElicitationSchema = {
      type: 'object',
      properties: {
        tags: {
          type: 'array',
          title: 'Tags',
          items: {
            anyOf: [
              { const: 'bug', title: 'Bug' },
              { const: 'docs', title: 'Documentation' },
            ],
          },
          default: ['bug'],
        },
      },
    };
    const { sent, prompter } = await elicit(form('Tags?', schema), [['bug', 'docs']]);
    expect(prompter.prompts[0]).toMatchObject({
      kind: 'multiselect',
      initialValues: ['bug'],
      required: false,
      options: [
        { value: 'bug', label: 'Bug' },
        { value: 'docs', label: 'Documentation', hint: 'docs' },
      ],
    });
    expect(sent).toEqual({ action: 'accept', content: { tags: ['bug', 'docs'] } });
  });

  test('numbers are typed as text and sent as numbers', async () => {
    const schema: ElicitationSchema = {
      type: 'object',
      properties: { value: { type: 'integer', title: 'Minutes', minimum: 5, maximum: 480 } },
      required: ['value'],
    };
    const { sent, prompter } = await elicit(form('Duration in minutes?', schema), [
      'soon',
      '2',
      '4.5',
      ' 45 ',
    ]);
    expect(sent).toEqual({ action: 'accept', content: { value: 45 } });
    expect(prompter.screen.filter((line) => line.startsWith('!'))).toEqual([
      '! Minutes: enter a whole number',
      '! Minutes must be at least 5, got 2',
      '! Minutes: expected an integer, got the number 4.5',
    ]);
  });
});

describe('limits are shown before they are broken', () => {
  const label = async (property: ElicitationSchema['properties'][string], required = true) => {
    const schema: ElicitationSchema = {
      type: 'object',
      properties: { value: property },
      ...(required ? { required: ['value'] } : {}),
    };
    const prompter = scriptedPrompter([CANCELLED]);
    await createElicitationHandler(prompter, oneAtATime())(
      'Q?',
      createResponseType(schema),
      form('Q?', schema),
      inputContext(),
    );
    return prompter.prompts[0]?.message;
  };

  test('numbers: whole or not, and their range', async () => {
    expect(await label({ type: 'integer', title: 'Minutes', minimum: 5, maximum: 480 })).toBe(
      'Minutes · whole number, 5–480',
    );
    expect(await label({ type: 'number', title: 'Amount', minimum: 0.5 })).toBe(
      'Amount · at least 0.5',
    );
    expect(await label({ type: 'number', title: 'Amount' })).toBe('Amount');
  });

  test('text: its length', async () => {
    expect(await label({ type: 'string', title: 'Code', minLength: 3, maxLength: 3 })).toBe(
      'Code · exactly 3 characters',
    );
    expect(
      await label({ type: 'string', title: 'Destination', description: 'City', minLength: 2 }),
    ).toBe('Destination · City · at least 2 characters');
    expect(await label({ type: 'string', title: 'Note', maxLength: 140 }, false)).toBe(
      'Note (optional) · at most 140 characters',
    );
    // "At least 1 character" on a required field says nothing "required" does not.
    expect(await label({ type: 'string', title: 'Name', minLength: 1 })).toBe('Name');
  });

  test('checklists: how many to tick', async () => {
    expect(
      await label({
        type: 'array',
        title: 'Tags',
        minItems: 1,
        maxItems: 2,
        items: { type: 'string', enum: ['a', 'b', 'c'] },
      }),
    ).toBe('Tags · choose 1–2');
  });
});

describe('invalid answers are asked again', () => {
  test('while the prompt is open: the reason is shown under the field', async () => {
    const schema: ElicitationSchema = {
      type: 'object',
      properties: {
        destination: { type: 'string', title: 'Destination', minLength: 2 },
        date: { type: 'string', title: 'Date', format: 'date' },
      },
      required: ['destination', 'date'],
    };
    const { sent, prompter } = await elicit(form('Trip?', schema), [
      'P',
      'Paris',
      '',
      'tomorrow',
      '2026-08-01',
    ]);
    expect(sent).toEqual({
      action: 'accept',
      content: { destination: 'Paris', date: '2026-08-01' },
    });
    expect(prompter.screen.filter((line) => line.startsWith('!'))).toEqual([
      '! Destination must be at least 2 characters long, got 1',
      '! Date is required',
      expect.stringMatching(/^! Date: expected a date .*tomorrow/),
    ]);
    expect(prompter.prompts[1]).toMatchObject({ placeholder: 'YYYY-MM-DD' });
  });

  test('when the built answer is refused: the error is shown and that field asked again, with the last input', async () => {
    const schema: ElicitationSchema = {
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name' },
        value: { type: 'number', title: 'Amount', maximum: 100 },
      },
      required: ['name', 'value'],
    };
    // A prompt that does not validate (as a plain terminal might not): the builder catches it.
    const { sent, prompter } = await elicit(form('Pay?', schema), ['Ada', '1000', '99'], {
      validates: false,
    });
    expect(sent).toEqual({ action: 'accept', content: { name: 'Ada', value: 99 } });
    expect(prompter.screen).toContain('error: Amount must be at most 100, got 1000');
    expect(prompter.prompts.map((prompt) => prompt.message)).toEqual([
      'Name',
      'Amount · at most 100',
      'Amount · at most 100',
    ]);
    expect(prompter.prompts[2]).toMatchObject({ initialValue: '1000' });
  });

  test('a multi-select with too few options ticked is asked again', async () => {
    const schema: ElicitationSchema = {
      type: 'object',
      properties: {
        value: {
          type: 'array',
          title: 'Tags',
          minItems: 1,
          items: { type: 'string', enum: ['bug', 'docs'] },
        },
      },
      required: ['value'],
    };
    const { sent, prompter } = await elicit(form('Tags?', schema), [[], ['docs']]);
    expect(sent).toEqual({ action: 'accept', content: { value: ['docs'] } });
    expect(prompter.screen).toContain('error: Tags: choose at least 1 option, got 0');
    expect(prompter.prompts[0]).toMatchObject({ required: true });
  });

  test('Ctrl-C on the re-asked field cancels', async () => {
    const schema: ElicitationSchema = {
      type: 'object',
      properties: { value: { type: 'number', title: 'Amount', maximum: 100 } },
      required: ['value'],
    };
    const { sent } = await elicit(form('Pay?', schema), ['1000', CANCELLED], {
      validates: false,
    });
    expect(sent).toEqual({ action: 'cancel' });
  });
});

describe('URL mode', () => {
  const params: ElicitUrlParams = {
    mode: 'url',
    message: 'Sign in to continue',
    url: 'https://auth.example.com/login?x=1',
  };

  test('shows the URL and asks whether the person will open it; yes accepts', async () => {
    const { sent, prompter } = await elicit(params, [true]);
    expect(sent).toEqual({ action: 'accept' });
    expect(prompter.screen).toContain('  Sign in to continue');
    expect(prompter.screen).toContain(
      'note Open this URL in your browser: https://auth.example.com/login?x=1',
    );
    expect(prompter.prompts[0]).toMatchObject({
      kind: 'confirm',
      message: 'Will you open it?',
      initialValue: true,
    });
  });

  test('no and Ctrl-D decline, Esc cancels', async () => {
    expect((await elicit(params, [false])).sent).toEqual({ action: 'decline' });
    expect((await elicit(params, [DECLINED])).sent).toEqual({ action: 'decline' });
    expect((await elicit(params, [CANCELLED])).sent).toEqual({ action: 'cancel' });
  });
});

describe('several questions at once', () => {
  test('are asked one after another, never interleaved', async () => {
    const prompter = scriptedPrompter(['Standup', '15']);
    const handler = createElicitationHandler(prompter, oneAtATime());
    const title: ElicitationSchema = {
      type: 'object',
      properties: { value: { type: 'string', title: 'Title' } },
      required: ['value'],
    };
    const minutes: ElicitationSchema = {
      type: 'object',
      properties: { value: { type: 'integer', title: 'Minutes' } },
      required: ['value'],
    };
    const [first, second] = await Promise.all([
      handler(
        'Title?',
        createResponseType(title),
        form('Title?', title),
        inputContext(1, { key: 'title' }),
      ),
      handler(
        'Minutes?',
        createResponseType(minutes),
        form('Minutes?', minutes),
        inputContext(1, { key: 'minutes' }),
      ),
    ]);
    expect(first).toEqual({ action: 'accept', content: { value: 'Standup' } });
    expect(second).toEqual({ action: 'accept', content: { value: 15 } });
    expect(prompter.prompts.map((prompt) => prompt.message)).toEqual([
      'Title',
      'Minutes · whole number',
    ]);
    expect(prompter.screen.filter((line) => line.startsWith('  ') && line.endsWith('?'))).toEqual([
      '  Title?',
      '  Minutes?',
    ]);
  });

  test('a cancel cancels the rest of the same round without asking; the next round asks again', async () => {
    const prompter = scriptedPrompter([CANCELLED, DECLINED]);
    const handler = createElicitationHandler(prompter, oneAtATime());
    const schema: ElicitationSchema = {
      type: 'object',
      properties: { value: { type: 'string' } },
      required: ['value'],
    };
    const ask = (message: string, round: number) =>
      handler(
        message,
        createResponseType(schema),
        form(message, schema),
        inputContext(round, { key: message }),
      );
    const [a, b] = await Promise.all([ask('A?', 1), ask('B?', 1)]);
    expect([a, b]).toEqual([{ action: 'cancel' }, { action: 'cancel' }]);
    expect(prompter.screen).toContain('info: Cancelled with the rest of the round: B?');
    expect(await ask('C?', 2)).toEqual({ action: 'decline' });
  });

  test('a question whose call is already over is not asked', async () => {
    const prompter = scriptedPrompter([]);
    const handler = createElicitationHandler(prompter, oneAtATime());
    const schema: ElicitationSchema = { type: 'object', properties: {} };
    const over = new AbortController();
    over.abort();
    const sent = await handler(
      'Late?',
      createResponseType(schema),
      form('Late?', schema),
      inputContext(1, { signal: over.signal }),
    );
    expect(sent).toEqual({ action: 'cancel' });
    expect(prompter.prompts).toEqual([]);
  });

  test('a question outside any call says the server asks', async () => {
    const { prompter } = await elicit(form('Hi?', { type: 'object', properties: {} }), [true], {
      ctx: inputContext(0, { call: undefined }),
    });
    expect(prompter.screen[0]).toBe('question: The server asks');
  });
});
