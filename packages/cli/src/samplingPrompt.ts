import type { CreateMessageParams, CreateMessageResult, SamplingMessage } from '@parley/core';

import type { InputContext, SamplingHandler } from '@parley/client';
import { roundLabel } from './elicitationPrompt.ts';
import { isDismissed, type Prompter } from './prompter.ts';

/**
 * Sampling with a person as the model: the conversation the server wants completed is shown,
 * and what the person types is sent back as the model's reply, under a model name that says
 * so, so the server never mistakes it for a model's output.
 */

/** The `model` of every reply the CLI sends. */
export const HUMAN_MODEL = 'human (parley cli)';

type Block = Extract<SamplingMessage['content'], { type: string }>;

function describeBlock(block: Block): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return `[image, ${block.mimeType}]`;
    case 'audio':
      return `[audio, ${block.mimeType}]`;
    default:
      return `[${String((block as { type: unknown }).type)} content]`;
  }
}

/** The conversation as the person reads it: the system prompt first, then each message. */
export function conversationText(params: CreateMessageParams): string {
  const blocks = (message: SamplingMessage): Block[] =>
    Array.isArray(message.content) ? message.content : [message.content];
  const lines = [
    ...(params.systemPrompt !== undefined ? [`system: ${params.systemPrompt}`] : []),
    ...params.messages.map(
      (message) => `${message.role}: ${blocks(message).map(describeBlock).join('\n')}`,
    ),
  ];
  return lines.join('\n\n');
}

/** Thrown when the person will not play the model; the call fails with it (there is no "decline"). */
export class SamplingRefusedError extends Error {
  constructor() {
    super('You refused to answer the sampling request, so the call cannot go on.');
    this.name = 'SamplingRefusedError';
  }
}

/** The CLI's `samplingHandler`; `queue` as for elicitations. */
export function createSamplingHandler(
  prompter: Prompter,
  queue: <T>(task: () => Promise<T>) => Promise<T>,
): SamplingHandler {
  return (_messages, params: CreateMessageParams, ctx: InputContext) =>
    queue(async (): Promise<CreateMessageResult> => {
      prompter.step(`${roundLabel(ctx)} for a sampling reply: you play the model`);
      prompter.note(conversationText(params), 'Conversation');
      const reply = await prompter.text({
        message: `Your reply as the model (up to ${params.maxTokens} tokens; Esc refuses)`,
        validate: (value) =>
          value.trim() === '' ? 'Type a reply, or press Esc to refuse.' : undefined,
        signal: ctx.signal,
      });
      if (isDismissed(reply)) throw new SamplingRefusedError();
      return {
        role: 'assistant',
        content: { type: 'text', text: reply },
        model: HUMAN_MODEL,
        stopReason: 'endTurn',
      };
    });
}
