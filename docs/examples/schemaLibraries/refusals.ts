import { elicitRequest } from '@parley/server';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import * as z from 'zod';

// Each throws the same TypeError, before anything is sent.

export function withZod() {
  // #region zod
  return elicitRequest(
    'Where to deliver?',
    z.object({ address: z.object({ street: z.string() }) }),
  );
  // #endregion zod
}

export function withValibot() {
  // #region valibot
  return elicitRequest(
    'Where to deliver?',
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
    type({ address: { street: 'string' } }),
  );
  // #endregion arktype
}
