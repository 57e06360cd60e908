import { describe, expect, test } from 'vitest';

import {
  InvalidAnswerError,
  UnsupportedCapabilityError,
  type ElicitationSchema,
  type InputRequest,
} from '@parley/core';

import { InputHandlerError } from '../src/errors.ts';
import { capabilitiesFor, createInputAnswerer } from '../src/inputAnswerer.ts';
import type { InputContext } from '../src/types.ts';

const ctx: InputContext = {
  era: 'modern',
  protocolVersion: '2026-07-28',
  call: { method: 'prompts/get', name: 'summarize' },
  round: 2,
  key: 'quarter',
  signal: new AbortController().signal,
};

const quarterSchema: ElicitationSchema = {
  type: 'object',
  properties: { quarter: { type: 'string' } },
  required: ['quarter'],
};

const askQuarter: InputRequest = {
  method: 'elicitation/create',
  params: { message: 'Which quarter?', requestedSchema: quarterSchema },
};

describe('capabilitiesFor', () => {
  test('declares only what has a handler; URL mode comes with form mode', () => {
    expect(capabilitiesFor({})).toEqual({});
    expect(capabilitiesFor({ elicitationHandler: () => ({}) })).toEqual({
      elicitation: { form: {}, url: {} },
    });
    expect(capabilitiesFor({ samplingHandler: () => 'x', roots: [] })).toEqual({
      sampling: {},
      roots: {},
    });
  });
});

describe('createInputAnswerer', () => {
  test('routes each request to its handler', async () => {
    const answer = createInputAnswerer({
      elicitationHandler: (_message, responseType) => responseType({ quarter: 'Q3' }),
      samplingHandler: () => 'text',
      roots: [{ uri: 'file:///a' }],
    });
    await expect(answer(askQuarter, ctx)).resolves.toEqual({
      action: 'accept',
      content: { quarter: 'Q3' },
    });
    await expect(answer({ method: 'roots/list' }, ctx)).resolves.toEqual({
      roots: [{ uri: 'file:///a' }],
    });
    await expect(
      answer({ method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } }, ctx),
    ).resolves.toMatchObject({ role: 'assistant', content: { type: 'text', text: 'text' } });
  });

  test('a request without a handler is a capability error naming the option to set', async () => {
    const answer = createInputAnswerer({});
    const error = await answer(askQuarter, ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedCapabilityError);
    expect((error as Error).message).toBe(
      'The server asked for elicitation/create, which this client did not declare: give the Client elicitationHandler to answer it.',
    );
  });

  test('whatever a handler throws, or an answer the schema refuses, becomes an InputHandlerError', async () => {
    const thrown = new Error('user closed the dialog');
    const failing = createInputAnswerer({
      elicitationHandler: () => {
        throw thrown;
      },
    });
    const error = await failing(askQuarter, ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputHandlerError);
    expect((error as InputHandlerError).message).toBe(
      "elicitationHandler failed to answer 'quarter' for prompts/get 'summarize' (round 2): user closed the dialog",
    );
    expect((error as InputHandlerError).data).toEqual({
      handler: 'elicitationHandler',
      call: { method: 'prompts/get', name: 'summarize' },
      round: 2,
      key: 'quarter',
      ask: "'quarter'",
    });
    expect((error as InputHandlerError).cause).toBe(thrown);

    const wrong = createInputAnswerer({ elicitationHandler: () => ({ quarter: 3 }) });
    const invalid = await wrong(askQuarter, ctx).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(InputHandlerError);
    expect((invalid as Error).cause).toBeInstanceOf(InvalidAnswerError);
  });

  test('a handshake-era ask is named by its message or method, never by its JSON-RPC id', async () => {
    const handshake: InputContext = {
      ...ctx,
      era: 'handshake',
      protocolVersion: '2025-11-25',
      key: '14',
    };
    const failing = createInputAnswerer({
      elicitationHandler: () => {
        throw new Error('user closed the dialog');
      },
      samplingHandler: () => {
        throw new Error('model offline');
      },
      roots: () => {
        throw new Error('no disk');
      },
    });
    const requests: InputRequest[] = [
      askQuarter,
      { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } },
      { method: 'roots/list' },
      {
        method: 'elicitation/create',
        params: {
          message: `Pick ${'a very long question '.repeat(8)}`,
          requestedSchema: quarterSchema,
        },
      },
    ];
    const messages = await Promise.all(
      requests.map((request) =>
        failing(request, handshake).catch((e: unknown) => (e as Error).message),
      ),
    );
    expect(messages).toEqual([
      'elicitationHandler failed to answer "Which quarter?" for prompts/get \'summarize\' (round 2): user closed the dialog',
      "samplingHandler failed to answer sampling/createMessage for prompts/get 'summarize' (round 2): model offline",
      "roots failed to answer roots/list for prompts/get 'summarize' (round 2): no disk",
      `elicitationHandler failed to answer "Pick ${'a very long question '.repeat(8).slice(0, 74)}…" for prompts/get 'summarize' (round 2): user closed the dialog`,
    ]);
    for (const message of messages) expect(message).not.toContain("'14'");
  });

  test('a handshake-era ask whose server sends its key (in _meta) is named by that key', async () => {
    const keyed: InputRequest = {
      method: 'elicitation/create',
      params: { ...askQuarter.params, _meta: { 'dev.parley/askKey': 'quarter' } },
    } as InputRequest;
    const failing = createInputAnswerer({
      elicitationHandler: () => {
        throw new Error('user closed the dialog');
      },
    });
    const handshake: InputContext = { ...ctx, era: 'handshake', key: 'quarter' };
    const error = await failing(keyed, handshake).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      "elicitationHandler failed to answer 'quarter' for prompts/get 'summarize' (round 2): user closed the dialog",
    );
  });
});
