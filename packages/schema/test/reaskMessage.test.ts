import { expect, test } from 'vitest';

import { describeFields, fieldValueProblem, readReask, reaskMessage } from '../src/index.ts';

const fields = describeFields({
  type: 'object',
  properties: {
    tickets: { type: 'integer', title: 'Tickets', minimum: 1 },
    returnDate: { type: 'string', title: 'Return date', format: 'date' },
    return: { type: 'string', title: 'Return' },
    note: { type: 'string' },
  },
  required: ['tickets'],
});

test('a re-ask written by reaskMessage reads back with its field and reason', () => {
  const tickets = fields.find((field) => field.name === 'tickets')!;
  const reason = fieldValueProblem(tickets, 0)!;
  expect(reason).toBe('must be at least 1, got 0');
  const message = reaskMessage('How many tickets?', `Tickets: ${reason}`);
  expect(message).toBe(
    'How many tickets?\n\nYour last answer could not be used. Tickets: must be at least 1, got 0.',
  );
  expect(readReask(message, fields)).toEqual({
    message: 'How many tickets?',
    field: 'tickets',
    reason: 'must be at least 1, got 0',
  });
});

test('the longest matching label wins, and an untitled field is named by its key', () => {
  expect(readReask(reaskMessage('When?', 'Return date: expected a date'), fields)?.field).toBe(
    'returnDate',
  );
  expect(readReask(reaskMessage('Anything?', 'note: too long'), fields)).toEqual({
    message: 'Anything?',
    field: 'note',
    reason: 'too long',
  });
});

test('a reason for the answer as a whole names no field; a first asking is no re-ask', () => {
  expect(readReask(reaskMessage('Book?', 'The answer did not come as a form'), fields)).toEqual({
    message: 'Book?',
    reason: 'The answer did not come as a form',
  });
  expect(readReask('How many tickets?', fields)).toBeUndefined();
});

test('a single wrapped field takes the unlabelled reason, as a clause', () => {
  const single = describeFields({
    type: 'object',
    properties: { value: { type: 'integer' } },
    required: ['value'],
  });
  expect(
    readReask(reaskMessage('Pick a number!', 'Expected an integer, got the string "x"'), single),
  ).toEqual({
    message: 'Pick a number!',
    field: 'value',
    reason: 'expected an integer, got the string "x"',
  });
});
