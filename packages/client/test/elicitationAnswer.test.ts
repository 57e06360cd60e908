import { describe, expect, test } from 'vitest';

import {
  AcceptedElicitation,
  CancelledElicitation,
  DeclinedElicitation,
  InvalidAnswerError,
  type ElicitFormParams,
  type ElicitUrlParams,
} from '@parley/core';

import { answerElicitation } from '../src/elicitationAnswer.ts';
import type { ElicitationHandler, InputContext } from '../src/types.ts';

const ctx: InputContext = {
  era: 'modern',
  protocolVersion: '2026-07-28',
  call: { method: 'tools/call', name: 'create_task' },
  round: 1,
  key: 'task',
  signal: new AbortController().signal,
};

const taskForm: ElicitFormParams = {
  mode: 'form',
  message: 'Please provide task details',
  requestedSchema: {
    type: 'object',
    properties: {
      title: { type: 'string' },
      description: { type: 'string', default: '' },
      priority: { type: 'string', enum: ['low', 'medium', 'high'], default: 'medium' },
    },
    required: ['title'],
  },
};

const wrapper: ElicitFormParams = {
  message: 'Pick a number!',
  requestedSchema: {
    type: 'object',
    properties: { value: { type: 'integer' } },
    required: ['value'],
  },
};

const signIn: ElicitUrlParams = {
  mode: 'url',
  message: 'Sign in',
  url: 'https://auth.example.com/connect',
};

const answer = (
  handler: ElicitationHandler,
  params: ElicitFormParams | ElicitUrlParams = taskForm,
) => answerElicitation(handler, params, ctx);

describe('what an elicitation handler may return', () => {
  test('what responseType built, defaults applied', async () => {
    await expect(
      answer((_m, responseType) => responseType({ title: 'Write docs' })),
    ).resolves.toEqual({
      action: 'accept',
      content: { title: 'Write docs', description: '', priority: 'medium' },
    });
  });

  test('plain field values, checked the same way', async () => {
    await expect(answer(() => ({ title: 'Write docs', priority: 'high' }))).resolves.toEqual({
      action: 'accept',
      content: { title: 'Write docs', description: '', priority: 'high' },
    });
  });

  test('a bare value for a one-field `value` form', async () => {
    await expect(answer(() => 7, wrapper)).resolves.toEqual({
      action: 'accept',
      content: { value: 7 },
    });
  });

  test('explicit decline and cancel, and the core classes', async () => {
    await expect(answer(() => ({ action: 'decline' }))).resolves.toEqual({ action: 'decline' });
    await expect(answer(() => ({ action: 'cancel' }))).resolves.toEqual({ action: 'cancel' });
    await expect(answer(() => new DeclinedElicitation())).resolves.toEqual({ action: 'decline' });
    await expect(answer(() => new CancelledElicitation())).resolves.toEqual({ action: 'cancel' });
    await expect(answer(() => new AcceptedElicitation({ title: 'A' }))).resolves.toEqual({
      action: 'accept',
      content: { title: 'A', description: '', priority: 'medium' },
    });
  });

  test("explicit accept with content, or with content built by responseType (the seed's shape)", async () => {
    await expect(answer(() => ({ action: 'accept', content: { title: 'B' } }))).resolves.toEqual({
      action: 'accept',
      content: { title: 'B', description: '', priority: 'medium' },
    });
    await expect(
      answer((_m, responseType) => ({ action: 'accept', content: responseType({ title: 'C' }) })),
    ).resolves.toEqual({
      action: 'accept',
      content: { title: 'C', description: '', priority: 'medium' },
    });
  });

  test('the handler sees the message, the builder with its fields, the params and the context', async () => {
    const seen: unknown[] = [];
    await answer((message, responseType, params, context) => {
      seen.push(
        message,
        responseType.fields.map((f) => [f.name, f.required]),
        params,
        context.key,
      );
      return { action: 'decline' };
    });
    expect(seen).toEqual([
      'Please provide task details',
      [
        ['title', true],
        ['description', false],
        ['priority', false],
      ],
      taskForm,
      'task',
    ]);
  });
});

describe('URL mode', () => {
  test('reaches the same handler with the URL in params; accept carries no content', async () => {
    let url: string | undefined;
    const result = await answer((_m, responseType, params) => {
      url = params.mode === 'url' ? params.url : undefined;
      return responseType({});
    }, signIn);
    expect(url).toBe('https://auth.example.com/connect');
    expect(result).toEqual({ action: 'accept' });
    await expect(answer(() => ({ action: 'accept' }), signIn)).resolves.toEqual({
      action: 'accept',
    });
    await expect(answer(() => ({ action: 'decline' }), signIn)).resolves.toEqual({
      action: 'decline',
    });
  });

  test('field values make no sense for a URL', async () => {
    await expect(answer(() => ({ title: 'x' }), signIn)).rejects.toThrow(/URL-mode request/);
  });
});

describe('answers that are refused', () => {
  test('a missing required field, a wrong type, an unknown field', async () => {
    await expect(answer(() => ({ priority: 'high' }))).rejects.toBeInstanceOf(InvalidAnswerError);
    await expect(answer(() => ({ title: 42 }))).rejects.toThrow(/title/);
    await expect(answer(() => ({ title: 'x', titel: 'typo' }))).rejects.toThrow(/titel/);
    await expect(answer(() => ({ title: 'x', priority: 'urgent' }))).rejects.toThrow(/priority/);
  });

  test('nothing at all', async () => {
    await expect(answer(() => undefined as never)).rejects.toThrow(/returned undefined/);
  });

  test('a bare value for a form with named fields', async () => {
    await expect(answer(() => 'Write docs')).rejects.toThrow(TypeError);
  });
});
