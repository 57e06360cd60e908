import { expect, test } from 'vitest';

import { InputRequiredToolResult, ToolResult, inputRequired } from '@parley/core';
import { isAsk } from '../src/index.ts';
import { dependsOnAnswers, outcomeOf, targetOf } from '../src/roundOutcome.ts';
import { listContext, roundContext } from './helpers/fakeContext.ts';

const ask = inputRequired({
  inputRequests: { roots: { method: 'roots/list' } },
  requestState: 'carried',
});

test('an ask is an InputRequiredToolResult (tools) or an InputRequiredResult (prompts, resources)', () => {
  expect(isAsk(new InputRequiredToolResult(ask))).toBe(true);
  expect(isAsk(ask)).toBe(true);
  expect(isAsk(new ToolResult())).toBe(false);
  expect(isAsk({ messages: [] })).toBe(false);
});

test('the outcome of a round, with the keys an ask asked for', () => {
  expect(outcomeOf(new InputRequiredToolResult(ask))).toEqual({
    outcome: 'input_required',
    askedKeys: ['roots'],
  });
  expect(outcomeOf(ask)).toEqual({ outcome: 'input_required', askedKeys: ['roots'] });
  expect(outcomeOf(new ToolResult({ isError: true }))).toEqual({ outcome: 'error', askedKeys: [] });
  expect(outcomeOf({ contents: [] })).toEqual({ outcome: 'complete', askedKeys: [] });
});

test('the target is the handler name or URI, and nothing for lists', () => {
  expect(targetOf(roundContext())).toBe('book_flight');
  expect(targetOf(listContext())).toBeUndefined();
});

test('a round depends on answers when it continues, resumes a flow, or pushed a request', () => {
  expect(dependsOnAnswers(roundContext())).toBe(false);
  expect(dependsOnAnswers(roundContext({ requestState: 'x' }))).toBe(true);
  expect(dependsOnAnswers(roundContext({ resumesFlow: true }))).toBe(true);
  expect(dependsOnAnswers(roundContext({ flow: { id: 'f', round: 2, startedAt: 0 } }))).toBe(true);
  expect(dependsOnAnswers(roundContext({ era: 'handshake', pushedRequests: 1 }))).toBe(true);
  expect(dependsOnAnswers(listContext())).toBe(false);
});
