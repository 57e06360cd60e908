import { elicitRequest } from '@parley/server';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import * as z from 'zod';

// Each is a compile-time error, and throws the same TypeError before anything is sent.

export function withZod() {
  // #region zod
  return elicitRequest(
    'Where to deliver?',
    // @ts-expect-error elicitation cannot carry this shape (a nested object)
    z.object({ address: z.object({ street: z.string() }) }),
  );
  // #endregion zod
}

export function withValibot() {
  // #region valibot
  return elicitRequest(
    'Where to deliver?',
    // @ts-expect-error elicitation cannot carry this shape (a nested object)
    toStandardJsonSchema(
      v.object({ address: v.object({ street: v.string() }) }),
    ),
  );
  // #endregion valibot
}

export function withArkType() {
  // #region arktype
  return elicitRequest(
    'Where to deliver?',
    // @ts-expect-error elicitation cannot carry this shape (a nested object)
    type({ address: { street: 'string' } }),
  );
  // #endregion arktype
}
