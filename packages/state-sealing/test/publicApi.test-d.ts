import { expectTypeOf, test } from 'vitest';

import {
  type BoundRequest,
  type RequestStateError,
  createMemoryReplayStore,
  createRequestStateSealer,
  generateKey,
  type ReplayStore,
  type RequestBinding,
  type RequestStateErrorReason,
  type RequestStateSealer,
  type RequestStateSealerOptions,
} from '../src/index.ts';

test('the sealer seals and opens strings, asynchronously', () => {
  const sealer = createRequestStateSealer({ audience: 'srv' });
  expectTypeOf(sealer).toEqualTypeOf<RequestStateSealer>();
  expectTypeOf(sealer.seal).parameters.toEqualTypeOf<[string, RequestBinding | BoundRequest]>();
  expectTypeOf(sealer.bind).parameters.toEqualTypeOf<[RequestBinding]>();
  expectTypeOf(sealer.bind).returns.toEqualTypeOf<BoundRequest>();
  expectTypeOf(sealer.seal).returns.toEqualTypeOf<Promise<string>>();
  expectTypeOf(sealer.open).returns.toEqualTypeOf<Promise<string>>();
  expectTypeOf<keyof RequestStateSealer>().toEqualTypeOf<'seal' | 'open' | 'openToken' | 'bind'>();
});

test('audience is the one required option', () => {
  expectTypeOf<{ audience: string }>().toExtend<RequestStateSealerOptions>();
  expectTypeOf<{ keys: string[] }>().not.toExtend<RequestStateSealerOptions>();
  expectTypeOf<{ audience: string; engine: 'openssl' }>().not.toExtend<RequestStateSealerOptions>();
  expectTypeOf<{
    audience: string;
    keys: Uint8Array[];
    engine: 'webcrypto';
  }>().toExtend<RequestStateSealerOptions>();
});

test('a binding needs method and target; arguments are anything, principal a string', () => {
  expectTypeOf<{ method: string; target: string }>().toExtend<RequestBinding>();
  expectTypeOf<{ method: string }>().not.toExtend<RequestBinding>();
  expectTypeOf<{
    method: string;
    target: string;
    principal: number;
  }>().not.toExtend<RequestBinding>();
});

test('errors carry one of the eight reasons', () => {
  expectTypeOf<RequestStateError['reason']>().toEqualTypeOf<RequestStateErrorReason>();
  expectTypeOf<RequestStateErrorReason>().toEqualTypeOf<
    | 'malformed'
    | 'unknown-key'
    | 'tampered'
    | 'expired'
    | 'wrong-audience'
    | 'wrong-binding'
    | 'replayed'
    | 'too-large'
  >();
});

test('replay stores and keys', () => {
  expectTypeOf(createMemoryReplayStore()).toEqualTypeOf<ReplayStore>();
  expectTypeOf<ReplayStore['claim']>().toEqualTypeOf<
    (tokenId: string, expiresAt: number) => Promise<boolean>
  >();
  expectTypeOf(generateKey).returns.toBeString();
});
