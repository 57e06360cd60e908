import { describe, expect, test } from 'vitest';

import type { CreateMessageParams } from '@parley/core';

import { answerRoots, answerSampling, UNKNOWN_MODEL } from '../src/samplingAndRoots.ts';
import type { InputContext } from '../src/types.ts';

const ctx: InputContext = {
  era: 'handshake',
  protocolVersion: '2025-11-25',
  call: undefined,
  round: 0,
  key: '3',
  signal: new AbortController().signal,
};

const params: CreateMessageParams = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Summarize this workspace.' } }],
  maxTokens: 50,
};

describe('samplingHandler', () => {
  test('gets the messages and the params; a string becomes an assistant text message', async () => {
    const seen: unknown[] = [];
    const result = await answerSampling(
      (messages, received) => {
        seen.push(messages, received.maxTokens);
        return 'A tidy monorepo.';
      },
      params,
      ctx,
    );
    expect(seen).toEqual([params.messages, 50]);
    expect(result).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'A tidy monorepo.' },
      model: UNKNOWN_MODEL,
      stopReason: 'endTurn',
    });
  });

  test('a full result is passed on as it is', async () => {
    const full = {
      role: 'assistant' as const,
      content: { type: 'text' as const, text: 'Hi' },
      model: 'claude-test',
      stopReason: 'maxTokens',
    };
    await expect(answerSampling(() => full, params, ctx)).resolves.toBe(full);
  });

  test('anything else is refused, naming what is missing', async () => {
    await expect(answerSampling(() => 42 as never, params, ctx)).rejects.toThrow(/generated text/);
    await expect(
      answerSampling(
        () => ({ role: 'assistant', content: { type: 'text', text: 'x' } }) as never,
        params,
        ctx,
      ),
    ).rejects.toThrow(/model/);
  });
});

describe('roots', () => {
  const roots = [{ uri: 'file:///home/me/project', name: 'project' }];

  test('a fixed list', async () => {
    await expect(answerRoots(roots, ctx)).resolves.toEqual({ roots });
  });

  test('a function, asked each time with the context', async () => {
    const keys: string[] = [];
    const provider = async (context: InputContext) => {
      keys.push(context.key);
      return roots;
    };
    await expect(answerRoots(provider, ctx)).resolves.toEqual({ roots });
    expect(keys).toEqual(['3']);
  });

  test('entries that are not roots are refused', async () => {
    await expect(answerRoots([{ uri: 'not a uri' }], ctx)).rejects.toThrow(/entry 0/);
    await expect(answerRoots(() => 'nope' as never, ctx)).rejects.toThrow(/array/);
  });
});
