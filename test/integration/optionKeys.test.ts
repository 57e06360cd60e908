import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { Client, createOAuthProvider } from '@parley/client';
import { canonicalJson } from '@parley/core';
import { renderElicitation } from '@parley/forms';
import {
  ErrorHandlingMiddleware,
  LoggingMiddleware,
  RateLimitingMiddleware,
  ResponseCachingMiddleware,
  TimingMiddleware,
} from '@parley/middleware';
import {
  createRedisEventStore,
  createRedisSingleUseStore,
  createRedisTaskStore,
  type RedisClient,
} from '@parley/redis';
import {
  ParleyServer,
  closeOnSignals,
  createMemoryEventStore,
  createMemorySingleUseStore,
  createMemoryTaskStore,
} from '@parley/server';
import { createMemoryReplayStore, createRequestStateSealer } from '@parley/state-sealing';
import { describe, expect, test } from 'vitest';

/**
 * A key an options object does not have is refused where the object is given, with a
 * `TypeError` that names it: JavaScript would ignore it without a word, and a misspelt, renamed
 * or removed option would silently leave its feature off (`requestStateSecurity.replayStore`,
 * now `singleUse`, left single use off and replays accepted).
 *
 * The test walks every options type the packages export: each one is either checked here (the
 * way a user passes it, with a key it does not have) or listed with the reason it is open.
 */

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGES = [
  'core',
  'schema',
  'state-sealing',
  'server',
  'client',
  'middleware',
  'testing',
  'redis',
  'forms',
];

/** Every `…Options` type a package's public entry exports. */
function exportedOptionTypes(): string[] {
  return PACKAGES.flatMap((name) => {
    const index = readFileSync(`${repoRoot}packages/${name}/src/index.ts`, 'utf8');
    return [...new Set(index.match(/\b[A-Z]\w*Options\b/g) ?? [])].map((type) => `${name}:${type}`);
  });
}

/** A Redis client that is never called: the stores check their options before any command. */
const redis = {} as unknown as RedisClient;
const tool = () => 'ok';
const server = () => new ParleyServer({ name: 'options' });

/** How each options type is given, with `extra` keys added to it (sync throw or rejection). */
const checked: Record<string, (extra: Record<string, unknown>) => unknown> = {
  'server:ParleyServerOptions': (extra) => new ParleyServer({ name: 'options', ...extra }),
  'server:RequestStateSecurity': (extra) =>
    new ParleyServer({ name: 'options', requestStateSecurity: { ...extra } }),
  'server:HttpOptions': (extra) => new ParleyServer({ name: 'options', http: { ...extra } }),
  'server:HttpAuthOptions': (extra) =>
    new ParleyServer({
      name: 'options',
      http: { auth: { verifyToken: () => undefined, ...extra } },
    }),
  'server:TasksOptions': (extra) => new ParleyServer({ name: 'options', tasks: { ...extra } }),
  'server:TelemetryOptions': (extra) =>
    new ParleyServer({ name: 'options', telemetry: { ...extra } }),
  'server:TelemetryRecordOptions': (extra) =>
    new ParleyServer({ name: 'options', telemetry: { record: { ...extra } } }),
  'server:ArgumentLimits': (extra) => new ParleyServer({ name: 'options', limits: { ...extra } }),
  'server:ToolOptions': (extra) => server().tool('t', { ...extra }, tool),
  'server:ToolTaskOptions': (extra) =>
    server().tool('t', { task: { support: 'optional', ...extra } }, tool),
  'server:PromptOptions': (extra) => server().prompt('p', { ...extra }, tool),
  'server:HttpRunOptions': (extra) => server().run({ transport: 'http', port: 0, ...extra }),
  'server:StdioRunOptions': (extra) => server().run({ transport: 'stdio', ...extra }),
  'server:RunOptions': (extra) => server().run({ transport: 'http', port: 0, ...extra }),
  'server:CloseOptions': async (extra) => {
    const running = await server().run({ transport: 'http', port: 0 });
    try {
      await running.close({ ...extra });
    } finally {
      await running.close();
    }
  },
  'server:CloseOnSignalsOptions': (extra) =>
    closeOnSignals({ close: async () => {} }, { exit: false, ...extra }),
  'server:FetchOptions': (extra) =>
    server().fetch(new Request('http://localhost/mcp', { method: 'POST' }), { ...extra }),
  'server:MemoryEventStoreOptions': (extra) => createMemoryEventStore({ ...extra }),
  'server:MemorySingleUseStoreOptions': (extra) => createMemorySingleUseStore({ ...extra }),
  'server:MemoryTaskStoreOptions': (extra) => createMemoryTaskStore({ ...extra }),
  'state-sealing:RequestStateSealerOptions': (extra) =>
    createRequestStateSealer({ audience: 'options', ...extra }),
  'state-sealing:MemoryReplayStoreOptions': (extra) => createMemoryReplayStore({ ...extra }),
  'client:ClientOptions': (extra) => new Client('http://127.0.0.1:1/mcp', { ...extra }),
  'client:ClientAuth (bearerToken)': (extra) =>
    new Client('http://127.0.0.1:1/mcp', { auth: { bearerToken: 'token', ...extra } }),
  'client:ClientAuth (oauth)': (extra) =>
    new Client('http://127.0.0.1:1/mcp', {
      auth: {
        oauth: createOAuthProvider({ redirectUrl: 'http://127.0.0.1:1/callback' }),
        ...extra,
      },
    }),
  'client:StdioServerCommand': (extra) => new Client({ command: 'node', ...extra }),
  'client:ClientTelemetryOptions': (extra) =>
    new Client('http://127.0.0.1:1/mcp', { telemetry: { ...extra } }),
  'client:CallOptions': (extra) => new Client(server()).callTool('t', {}, { ...extra } as never),
  'client:OAuthProviderOptions': (extra) =>
    createOAuthProvider({ redirectUrl: 'http://127.0.0.1:1/callback', ...extra }),
  'middleware:ErrorHandlingOptions': (extra) => new ErrorHandlingMiddleware({ ...extra }),
  'middleware:LoggingOptions': (extra) => new LoggingMiddleware({ ...extra }),
  'middleware:RateLimitingOptions': (extra) =>
    new RateLimitingMiddleware({ maxFlows: 1, windowMs: 1000, ...extra }),
  'middleware:ResponseCachingOptions': (extra) => new ResponseCachingMiddleware({ ...extra }),
  'middleware:TimingOptions': (extra) => new TimingMiddleware({ ...extra }),
  'redis:RedisEventStoreOptions': (extra) => createRedisEventStore(redis, { ...extra }),
  'redis:RedisSingleUseStoreOptions': (extra) => createRedisSingleUseStore(redis, { ...extra }),
  'redis:RedisTaskStoreOptions': (extra) => createRedisTaskStore(redis, { ...extra }),
  'redis:RedisStoreOptions': (extra) => createRedisSingleUseStore(redis, { ...extra }),
  // Checked before the page is touched, so no DOM is needed to see the refusal.
  'core:CanonicalJsonOptions': (extra) => canonicalJson({ a: 1 }, { ...extra }),
  'forms:RenderOptions': (extra) =>
    renderElicitation(
      {} as HTMLElement,
      { message: 'Hi', requestedSchema: { type: 'object', properties: {} } },
      { ...extra },
    ),
};

/** Options types that take any key, or are not given as one object, and why. */
const open: Record<string, string> = {
  'server:ResourceOptions':
    'open by design: keys Parley does not use are listed as the resource’s own fields (MCP lets a resource carry more)',
  'server:AskOptions': 'part of an ask builder’s labels and response-type options (per ask)',
  'server:FormAskOptions': 'part of an ask builder’s labels and response-type options (per ask)',
  'server:ElicitOptions': 'per call of ctx.elicit, mixed with the response type’s own options',
  'server:WaitOptions': 'per call of ctx.ask/ctx.elicit on the handshake era',
  'schema:ResponseTypeOptions': 'per response type; what it takes depends on the response type',
  'schema:TitledOptions': 'a response type’s option list, not an options object',
  'core:ParleyErrorOptions': 'an error’s data and cause, set by Parley itself',
  'core:ToJsonRpcErrorOptions': 'Parley’s own mapping of an error to the wire',
  'testing:EraMatrixOptions': 'a test helper’s',
  'testing:MatrixConnectOptions': 'a test helper’s',
  'testing:RuleOptions': 'a test helper’s',
};

/** Run `call`, and the error it throws or rejects with. */
async function failureOf(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('options objects refuse keys they do not have', () => {
  test('every exported options type is checked here or listed as open, with a reason', () => {
    const named = new Set([
      ...Object.keys(checked).map((name) => name.replace(/ \(.*\)$/, '')),
      ...Object.keys(open),
    ]);
    const unaccounted = exportedOptionTypes().filter((type) => !named.has(type));
    expect(unaccounted).toEqual([]);
  });

  test.each(Object.entries(checked))(
    '%s: an unknown key is a TypeError that names it',
    async (_name, give) => {
      const error = await failureOf(() => give({ colour: 'blue' }));
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(/\bcolour is not an option\b/);
    },
  );

  test('a renamed option says what replaced it: requestStateSecurity.replayStore is singleUse', () => {
    expect(
      () =>
        new ParleyServer({
          name: 'options',
          requestStateSecurity: { replayStore: createMemoryReplayStore() } as never,
        }),
    ).toThrow(
      /^ParleyServer: options\.requestStateSecurity\.replayStore is not an option; use requestStateSecurity\.singleUse instead/,
    );
  });

  test('a duration given in seconds says to give it in milliseconds, under its Ms name', () => {
    expect(
      () =>
        new ParleyServer({
          name: 'options',
          requestStateSecurity: { ttlSeconds: 600 } as never,
        }),
    ).toThrow(
      /^ParleyServer: options\.requestStateSecurity\.ttlSeconds is not an option; use requestStateSecurity\.ttlMs, in milliseconds .*\(ttlSeconds: 600 is ttlMs: 600_000\)\.$/,
    );
    expect(() =>
      createRequestStateSealer({ audience: 'a', clockSkewSeconds: 30 } as never),
    ).toThrow(
      /^createRequestStateSealer: options\.clockSkewSeconds is not an option; use clockSkewMs/,
    );
  });

  test('the client bounds rounds with one name: inputRequiredMaxRounds is maxRounds', () => {
    expect(
      () => new Client('http://127.0.0.1:1/mcp', { inputRequiredMaxRounds: 3 } as never),
    ).toThrow(
      /^Client: options\.inputRequiredMaxRounds is not an option; use maxRounds: the same bound/,
    );
    expect(() => new Client('http://127.0.0.1:1/mcp', { maxRounds: 3 })).not.toThrow();
  });

  test('a removed option says so: eraBridge', () => {
    expect(() => new ParleyServer({ name: 'options', eraBridge: true } as never)).toThrow(
      /options\.eraBridge is not an option; it was removed: ctx\.ask serves both eras/,
    );
  });

  test('a near miss names the key it was meant to be', () => {
    expect(() => new ParleyServer({ name: 'options', maxReask: 2 } as never)).toThrow(
      /options\.maxReask is not an option; did you mean maxReasks\?/,
    );
    expect(() => server().tool('t', { inputSchmea: {} } as never, tool)).toThrow(
      /^tool 't': options\.inputSchmea is not an option; did you mean inputSchema\?/,
    );
  });

  test('a Middleware with the removed onMessage hook is refused (it would never run)', () => {
    expect(() => server().use({ onMessage: async () => undefined } as never)).toThrow(
      /onMessage is not a Middleware hook \(it was removed\); use onRequest/,
    );
  });

  test('options that are all known are accepted, nested ones too', () => {
    expect(
      () =>
        new ParleyServer({
          name: 'options',
          version: '1.0.0',
          requestStateSecurity: { singleUse: true, replayWindowMs: 1000, roundLeaseMs: 1000 },
          http: { sessions: false, maxBodyBytes: 1024 },
          limits: { maxDepth: 8 },
          tasks: { leaseMs: 5000 },
        }),
    ).not.toThrow();
  });
});
