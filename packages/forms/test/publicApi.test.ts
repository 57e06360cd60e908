import { expect, test } from 'vitest';

import * as api from '../src/index.ts';
import * as react from '../src/react.ts';

// The runtime surface of @parley/forms and @parley/forms/react. Adding to it is a public API
// change: update this list together with a changeset.
test('the public API is exactly this', () => {
  expect(Object.keys(api).sort()).toEqual([
    'ANSWER_EVENT',
    'ELEMENT_NAME',
    'ParleyElicitationElement',
    'checkUrl',
    'renderElicitation',
  ]);
  expect(Object.keys(react)).toEqual(['Elicitation']);
});

test('the element and event names', () => {
  expect(api.ELEMENT_NAME).toBe('parley-elicitation');
  expect(api.ANSWER_EVENT).toBe('parley-answer');
});

test('renderElicitation refuses an unknown option, naming it, before touching the page', () => {
  const params = { message: 'Hi', requestedSchema: { type: 'object' as const, properties: {} } };
  const container = {} as HTMLElement;
  expect(() => api.renderElicitation(container, params, { sigal: undefined } as never)).toThrow(
    new TypeError(
      'renderElicitation: options.sigal is not an option; did you mean signal? (the options are signal).',
    ),
  );
  expect(() => api.renderElicitation(container, params, { signal: 'stop' } as never)).toThrow(
    'renderElicitation: options.signal must be an AbortSignal.',
  );
});
