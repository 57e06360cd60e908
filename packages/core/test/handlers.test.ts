import { expect, test } from 'vitest';

import { EraMismatchError, handlerLabel } from '../src/index.ts';

test('a handler is named by its kind and name, as every message names it', () => {
  expect(handlerLabel({ kind: 'tool', name: 'book_flight' })).toBe("Tool 'book_flight'");
  expect(handlerLabel({ kind: 'resourceTemplate', name: 'file:///{path}' })).toBe(
    "Resource template 'file:///{path}'",
  );
  const error = new EraMismatchError({
    kind: 'prompt',
    name: 'plan',
    protocolVersion: '2025-11-25',
    used: 'inputRequired',
  });
  expect(
    error.message.startsWith(`${handlerLabel({ kind: 'prompt', name: 'plan' })} returned`),
  ).toBe(true);
});
