import { describe, expect, test } from 'vitest';

import {
  AcceptedElicitation,
  CancelledElicitation,
  DeclinedElicitation,
  type ElicitationResult,
} from '../src/index.ts';

function describeResult(result: ElicitationResult<{ name: string }>): string {
  switch (result.action) {
    case 'accept':
      return `accepted ${result.data.name}`;
    case 'decline':
      return 'declined';
    case 'cancel':
      return 'cancelled';
  }
}

function describeByClass(result: ElicitationResult<number>): string {
  if (result instanceof AcceptedElicitation) return `picked ${result.data}`;
  if (result instanceof DeclinedElicitation) return 'declined';
  return 'cancelled';
}

describe('the elicitation result union', () => {
  test('each class carries its action', () => {
    expect(new AcceptedElicitation('x').action).toBe('accept');
    expect(new DeclinedElicitation().action).toBe('decline');
    expect(new CancelledElicitation().action).toBe('cancel');
  });

  test('accepted carries its data unchanged', () => {
    const data = { name: 'Ada', tags: ['a'] };
    expect(new AcceptedElicitation(data).data).toBe(data);
  });

  test('switch on action reaches the right branch', () => {
    expect(describeResult(new AcceptedElicitation({ name: 'Ada' }))).toBe('accepted Ada');
    expect(describeResult(new DeclinedElicitation())).toBe('declined');
    expect(describeResult(new CancelledElicitation())).toBe('cancelled');
  });

  test('instanceof reaches the right branch', () => {
    expect(describeByClass(new AcceptedElicitation(7))).toBe('picked 7');
    expect(describeByClass(new DeclinedElicitation())).toBe('declined');
    expect(describeByClass(new CancelledElicitation())).toBe('cancelled');
    expect(new DeclinedElicitation()).not.toBeInstanceOf(CancelledElicitation);
  });

  test('an accepted result with undefined data (approve-only) is still accepted', () => {
    const approved = new AcceptedElicitation(undefined);
    expect(approved.action).toBe('accept');
    expect(approved.data).toBeUndefined();
  });

  test('results serialise to what a log would want', () => {
    expect(JSON.parse(JSON.stringify(new AcceptedElicitation({ n: 1 })))).toEqual({
      action: 'accept',
      data: { n: 1 },
    });
    expect(JSON.parse(JSON.stringify(new CancelledElicitation()))).toEqual({ action: 'cancel' });
  });
});
