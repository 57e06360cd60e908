import {
  isRecord,
  type CreateMessageParams,
  type CreateMessageResult,
  type ListRootsResult,
  type Root,
} from '@parley/core';

import type { InputContext, RootsProvider, SamplingHandler } from './types.ts';

/**
 * Sampling and roots answers: the handler's return value checked and brought into wire shape,
 * so a mistake surfaces here, named, rather than as a schema error on the server.
 */

/** The model a text-only sampling answer claims; return a full result to name the real one. */
export const UNKNOWN_MODEL = 'unknown';

function checkSamplingResult(value: unknown): CreateMessageResult {
  if (!isRecord(value)) {
    throw new TypeError('samplingHandler must return the generated text or a sampling result.');
  }
  if (value.role !== 'assistant' && value.role !== 'user') {
    throw new TypeError("samplingHandler: a sampling result needs role 'assistant' (or 'user').");
  }
  if (!isRecord(value.content) && !Array.isArray(value.content)) {
    throw new TypeError('samplingHandler: a sampling result needs content (a block or a list).');
  }
  if (typeof value.model !== 'string') {
    throw new TypeError('samplingHandler: a sampling result needs the model name as a string.');
  }
  return value as unknown as CreateMessageResult;
}

/** Ask the sampling handler; a string becomes an assistant text message. */
export async function answerSampling(
  handler: SamplingHandler,
  params: CreateMessageParams,
  ctx: InputContext,
): Promise<CreateMessageResult> {
  const answer = await handler(params.messages, params, ctx);
  if (typeof answer === 'string') {
    return {
      role: 'assistant',
      content: { type: 'text', text: answer },
      model: UNKNOWN_MODEL,
      stopReason: 'endTurn',
    };
  }
  return checkSamplingResult(answer);
}

function checkRoot(root: unknown, index: number): Root {
  if (!isRecord(root) || typeof root.uri !== 'string') {
    throw new TypeError(`roots: entry ${index} must be an object with a uri string.`);
  }
  if (!URL.canParse(root.uri)) {
    throw new TypeError(`roots: entry ${index} has ${JSON.stringify(root.uri)}, not a URI.`);
  }
  if (root.name !== undefined && typeof root.name !== 'string') {
    throw new TypeError(`roots: the name of entry ${index} must be a string.`);
  }
  return root as unknown as Root;
}

/** Check a roots list given at construction, so a mistake fails `new Client()`, not a call. */
export function checkRoots(roots: readonly unknown[]): Root[] {
  return roots.map(checkRoot);
}

/** The roots to answer with: the fixed list, or what the provider function returns now. */
export async function answerRoots(
  provider: RootsProvider,
  ctx: InputContext,
): Promise<ListRootsResult> {
  const roots = typeof provider === 'function' ? await provider(ctx) : provider;
  if (!Array.isArray(roots)) throw new TypeError('roots: the provider must return an array.');
  return { roots: checkRoots(roots) };
}
