import type { CreateMessageParams } from '@parley/core';
import { describe, expect, test } from 'vitest';

import { oneAtATime } from '../src/oneAtATime.ts';
import { CANCELLED, DECLINED } from '../src/prompter.ts';
import {
  HUMAN_MODEL,
  SamplingRefusedError,
  conversationText,
  createSamplingHandler,
} from '../src/samplingPrompt.ts';
import { inputContext } from './helpers/inputContext.ts';
import { scriptedPrompter } from './helpers/scriptedPrompter.ts';

const params: CreateMessageParams = {
  systemPrompt: 'You are a concise financial analyst.',
  messages: [
    { role: 'user', content: { type: 'text', text: 'Summarize in one sentence:\nQ1: 1160k EUR' } },
    { role: 'assistant', content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
  ],
  maxTokens: 120,
};

describe('sampling answered by the person', () => {
  test('the conversation is shown, system prompt first, non-text content named', () => {
    expect(conversationText(params)).toBe(
      'system: You are a concise financial analyst.\n\nuser: Summarize in one sentence:\nQ1: 1160k EUR\n\nassistant: [image, image/png]',
    );
  });

  test('what the person types is the reply, under a model name that says a person wrote it', async () => {
    const prompter = scriptedPrompter(['', 'Revenue grew every quarter.']);
    const handler = createSamplingHandler(prompter, oneAtATime());
    const reply = await handler(
      params.messages,
      params,
      inputContext(1, { call: { method: 'tools/call', name: 'summarize_workspace' } }),
    );
    expect(reply).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'Revenue grew every quarter.' },
      model: HUMAN_MODEL,
      stopReason: 'endTurn',
    });
    expect(HUMAN_MODEL).toBe('human (parley cli)');
    expect(prompter.screen).toEqual([
      'step: summarize_workspace asks (round 1) for a sampling reply: you play the model',
      `note Conversation: ${conversationText(params)}`,
      '? Your reply as the model (up to 120 tokens; Esc refuses)',
      '! Type a reply, or press Esc to refuse.',
      '> Revenue grew every quarter.',
    ]);
  });

  test('Esc or Ctrl-D refuses, which fails the call with a reason', async () => {
    for (const key of [CANCELLED, DECLINED] as const) {
      const handler = createSamplingHandler(scriptedPrompter([key]), oneAtATime());
      await expect(handler(params.messages, params, inputContext())).rejects.toBeInstanceOf(
        SamplingRefusedError,
      );
    }
  });
});
