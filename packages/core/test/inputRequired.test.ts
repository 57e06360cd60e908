import { describe, expect, test } from 'vitest';

import {
  INPUT_REQUEST_METHODS,
  type InputRequests,
  inputRequired,
  isInputRequestMethod,
  isInputRequiredResult,
} from '../src/index.ts';

const askDestination: InputRequests = {
  destination: {
    method: 'elicitation/create',
    params: {
      mode: 'form',
      message: 'Where would you like to fly?',
      requestedSchema: {
        type: 'object',
        properties: { destination: { type: 'string' } },
        required: ['destination'],
      },
    },
  },
};

describe('inputRequired', () => {
  test('builds an input_required result with the requests', () => {
    expect(inputRequired({ inputRequests: askDestination })).toEqual({
      resultType: 'input_required',
      inputRequests: askDestination,
    });
  });

  test('carries requestState alongside the requests', () => {
    expect(inputRequired({ inputRequests: askDestination, requestState: 's1' })).toEqual({
      resultType: 'input_required',
      inputRequests: askDestination,
      requestState: 's1',
    });
  });

  test('a state-only result is allowed (a round that only carries state)', () => {
    expect(inputRequired({ requestState: 'step-2' })).toEqual({
      resultType: 'input_required',
      requestState: 'step-2',
    });
  });

  test('an empty string is still state', () => {
    expect(inputRequired({ requestState: '' })).toEqual({
      resultType: 'input_required',
      requestState: '',
    });
  });

  test('sampling and roots requests may sit in the same map', () => {
    const result = inputRequired({
      inputRequests: {
        ...askDestination,
        summary: {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }],
            maxTokens: 50,
          },
        },
        roots: { method: 'roots/list' },
      },
    });
    expect(Object.keys(result.inputRequests ?? {})).toEqual(['destination', 'summary', 'roots']);
  });

  test('refuses a result with neither requests nor state', () => {
    expect(() => inputRequired({})).toThrow(TypeError);
    expect(() => inputRequired({})).toThrow(/^inputRequired: give inputRequests/);
  });

  test('refuses an empty requests map without state', () => {
    expect(() => inputRequired({ inputRequests: {} })).toThrow(
      /^inputRequired: give inputRequests/,
    );
  });

  test('drops an empty requests map when state is present', () => {
    expect(inputRequired({ inputRequests: {}, requestState: 'x' })).toEqual({
      resultType: 'input_required',
      requestState: 'x',
    });
  });

  test('refuses an entry that is not an input request, naming its key', () => {
    expect(() =>
      inputRequired({
        inputRequests: { bad: { method: 'tools/call' } as never },
      }),
    ).toThrow(
      /inputRequests\["bad"\] must be an elicitation\/create, sampling\/createMessage or roots\/list request, got "tools\/call"/,
    );
  });

  test('refuses non-string state', () => {
    expect(() => inputRequired({ requestState: { step: 2 } as never })).toThrow(
      /^inputRequired: requestState must be a string/,
    );
  });
});

describe('isInputRequiredResult', () => {
  test('recognises an input_required result', () => {
    expect(isInputRequiredResult(inputRequired({ requestState: 'x' }))).toBe(true);
  });

  test.each([
    { content: [] },
    { resultType: 'complete', content: [] },
    null,
    'input_required',
    undefined,
  ])('refuses %j', (value) => {
    expect(isInputRequiredResult(value)).toBe(false);
  });

  test('refuses the removed JSON state, saying what to use instead', () => {
    expect(() => inputRequired({ state: { step: 2 } } as never)).toThrow(
      /^inputRequired: `state` was removed; carry a string in requestState .* or keep values with ctx\.remember/,
    );
  });

  test('refuses a key it does not take, naming the nearest', () => {
    expect(() => inputRequired({ requestState: 's', inputRequest: {} } as never)).toThrow(
      /^inputRequired: init\.inputRequest is not an option; did you mean inputRequests\?/,
    );
    expect(() => inputRequired(Object.create({ requestState: 's' }) as never)).toThrow(
      /^inputRequired: init\.requestState is inherited from the object's prototype/,
    );
  });
});

describe('input request methods', () => {
  test('elicitation, sampling and roots are the methods an input request may have', () => {
    expect(INPUT_REQUEST_METHODS).toEqual([
      'elicitation/create',
      'sampling/createMessage',
      'roots/list',
    ]);
    expect(Object.isFrozen(INPUT_REQUEST_METHODS)).toBe(true);
    for (const method of INPUT_REQUEST_METHODS) expect(isInputRequestMethod(method)).toBe(true);
    for (const method of ['tools/call', 'ping', 'elicitation/complete', undefined, 42]) {
      expect(isInputRequestMethod(method)).toBe(false);
    }
  });
});
