import { describe, expectTypeOf, test } from 'vitest';

import {
  AcceptedElicitation,
  type CancelledElicitation,
  type DeclinedElicitation,
  type ElicitationAction,
  type ElicitationResult,
} from '../src/index.ts';

declare const result: ElicitationResult<{ name: string; age: number }>;

describe('narrowing the elicitation result union', () => {
  test('switch on action narrows data to T', () => {
    switch (result.action) {
      case 'accept':
        expectTypeOf(result).toEqualTypeOf<AcceptedElicitation<{ name: string; age: number }>>();
        expectTypeOf(result.data).toEqualTypeOf<{ name: string; age: number }>();
        break;
      case 'decline':
        expectTypeOf(result).toEqualTypeOf<DeclinedElicitation>();
        // @ts-expect-error a declined result has no data
        void result.data;
        break;
      case 'cancel':
        expectTypeOf(result).toEqualTypeOf<CancelledElicitation>();
        break;
      default:
        expectTypeOf(result).toBeNever();
    }
  });

  test('instanceof narrows data to T', () => {
    if (result instanceof AcceptedElicitation) {
      expectTypeOf(result.data).toEqualTypeOf<{ name: string; age: number }>();
    } else {
      expectTypeOf(result).toEqualTypeOf<DeclinedElicitation | CancelledElicitation>();
    }
  });

  test('data is not reachable before narrowing', () => {
    // @ts-expect-error data exists only on the accepted branch
    void result.data;
  });

  test('the action union is exactly the three actions', () => {
    expectTypeOf<ElicitationAction>().toEqualTypeOf<'accept' | 'decline' | 'cancel'>();
  });

  test('the data type is inferred from the constructor', () => {
    expectTypeOf(new AcceptedElicitation(['bug', 'feature'] as const).data).toEqualTypeOf<
      readonly ['bug', 'feature']
    >();
  });
});
