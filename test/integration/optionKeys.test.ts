import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import {
  Client,
  createOAuthProvider,
  createWorkloadIdentityProvider,
  explainConnectionFailure,
} from '@parley/client';
import { canonicalJson, inputRequired } from '@parley/core';
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
  createRedisSessionStore,
  createRedisSingleUseStore,
  createRedisTaskStore,
  type RedisClient,
} from '@parley/redis';
import { ParleyProxy } from '@parley/proxy';
import { compileResponseType } from '@parley/schema';
import {
  EraMismatchError,
  ParleyServer,
  closeOnSignals,
  createMemoryEventStore,
  createMemorySessionStore,
  createMemorySingleUseStore,
  createMemoryTaskStore,
  elicitRequest,
  elicitUrlRequest,
  rootsRequest,
  sampleRequest,
  type Context,
} from '@parley/server';
import { createMemoryReplayStore, createRequestStateSealer } from '@parley/state-sealing';
import { eraMatrix, scriptedUser } from '@parley/testing';
import { describe, expect, test } from 'vitest';

/**
 * A key an options object does not have is refused where the object is given, with a
 * `TypeError` that names it: JavaScript would ignore it without a word, and a misspelt, renamed
 * or removed option would silently leave its feature off (`requestStateSecurity.replayStore`,
 * now `singleUse`, left single use off and replays accepted). So is a symbol key, and a key the
 * object inherits from its prototype (a read would see it, a spread would drop it).
 *
 * The test walks every options type the packages export: each one is either checked here (the
 * way a user passes it: with a key it does not have, a misspelling of one it has, the same
 * misspelling inherited, and a symbol key) or listed with the reason it is open. APIs whose
 * options type is not exported by an `…Options` name are in the table too.
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
  'proxy',
];

/** Every `…Options` type a package's public entry exports. */
function exportedOptionTypes(): string[] {
  return PACKAGES.flatMap((name) => {
    const index = readFileSync(`${repoRoot}packages/${name}/src/index.ts`, 'utf8');
    return [...new Set(index.match(/\b[A-Z]\w*Options\b/g) ?? [])].map((type) => `${name}:${type}`);
  });
}

/**
 * Makes the options object a case gives from the keys the API needs (`base`), with the keys the
 * test adds: as the object's own, inherited from its prototype, or under a symbol.
 */
type Build = (base?: object) => never;

interface Case {
  /** Give the API the options `build` makes (a sync throw or a rejection is the refusal). */
  give: (build: Build) => unknown;
  /** A misspelling of one of its options, and the option meant. */
  typo: readonly [misspelt: string, meant: string];
}

/** A Redis client that is never called: the stores check their options before any command. */
const redis = {} as unknown as RedisClient;
const redisSubscriber = { subscribe: async () => {}, unsubscribe: async () => {} };
const read = () => 'ok';
const server = () => new ParleyServer({ name: 'options' });
const url = 'http://127.0.0.1:1/mcp';
const verifyToken = () => undefined;
const oauth = () => createOAuthProvider({ redirectUrl: 'http://127.0.0.1:1/callback' });

/**
 * Run `body` in a tool's handler, called by a real client in the handshake era (which answers
 * every kind of ask), and rethrow what it threw there.
 */
async function inHandler(body: (ctx: Context) => Promise<unknown>): Promise<void> {
  let thrown: unknown;
  const mcp = server().tool('t', async (_args, ctx) => {
    try {
      await body(ctx);
    } catch (error) {
      thrown = error;
    }
    return 'done';
  });
  const client = new Client(mcp, {
    mode: 'handshake',
    elicitationHandler: () => ({ action: 'decline' }),
    samplingHandler: () => 'text',
    roots: [],
  });
  try {
    await client.connect();
    await client.callTool('t', {});
  } finally {
    await client.close();
  }
  if (thrown !== undefined) throw thrown;
}

/** How each options type is given. */
const checked: Record<string, Case> = {
  'server:ParleyServerOptions': {
    give: (o) => new ParleyServer(o({ name: 'options' })),
    typo: ['maxReask', 'maxReasks'],
  },
  'server:RequestStateSecurity': {
    give: (o) => new ParleyServer({ name: 'options', requestStateSecurity: o() }),
    typo: ['singleuse', 'singleUse'],
  },
  'server:HttpOptions': {
    give: (o) => new ParleyServer({ name: 'options', http: o() }),
    typo: ['maxBodyByte', 'maxBodyBytes'],
  },
  'server:HttpAuthOptions': {
    give: (o) => new ParleyServer({ name: 'options', http: { auth: o({ verifyToken }) } }),
    typo: ['requiredScope', 'requiredScopes'],
  },
  'server:TasksOptions': {
    give: (o) => new ParleyServer({ name: 'options', tasks: o() }),
    typo: ['leasMs', 'leaseMs'],
  },
  'server:TelemetryOptions': {
    give: (o) => new ParleyServer({ name: 'options', telemetry: o() }),
    typo: ['tracerprovider', 'tracerProvider'],
  },
  'server:TelemetryRecordOptions': {
    give: (o) => new ParleyServer({ name: 'options', telemetry: { record: o() } }),
    typo: ['answer', 'answers'],
  },
  'server:ArgumentLimits': {
    give: (o) => new ParleyServer({ name: 'options', limits: o() }),
    typo: ['maxNode', 'maxNodes'],
  },
  'server:HostProfile (a row of hostProfiles)': {
    give: (o) =>
      new ParleyServer({ name: 'options', hostProfiles: [o({ name: 'h', source: 's' })] }),
    typo: ['urlmode', 'urlMode'],
  },
  'server:ToolOptions': {
    give: (o) => server().tool('t', o(), read),
    typo: ['inputSchmea', 'inputSchema'],
  },
  'server:ToolTaskOptions': {
    give: (o) => server().tool('t', { task: o({ support: 'optional' }) }, read),
    typo: ['ttl', 'ttlMs'],
  },
  'server:PromptOptions': {
    give: (o) => server().prompt('p', o(), read),
    typo: ['argments', 'arguments'],
  },
  'server:ResourceOptions': {
    give: (o) => server().resource('fares://today', o({ name: 'fares' }), read),
    typo: ['mimetype', 'mimeType'],
  },
  'server:ResourceOptions (resourceTemplate)': {
    give: (o) => server().resourceTemplate('fares://{city}', o({ name: 'fare' }), read),
    typo: ['mimetype', 'mimeType'],
  },
  'server:FormAskOptions (elicitRequest, a label)': {
    give: (o) => elicitRequest('Your name?', String, o()),
    typo: ['resposneTitle', 'responseTitle'],
  },
  'server:FormAskOptions (elicitRequest, optional)': {
    give: (o) => elicitRequest('Your name?', String, o()),
    typo: ['optinal', 'optional'],
  },
  'server:AskOptions (elicitUrlRequest)': {
    give: (o) => elicitUrlRequest('Sign in', 'https://example.com/login', o()),
    typo: ['optinal', 'optional'],
  },
  'server:SampleOptions': {
    give: (o) => sampleRequest('Summarise this', o()),
    typo: ['maxToken', 'maxTokens'],
  },
  'server:AskOptions (rootsRequest)': {
    give: (o) => rootsRequest(o()),
    typo: ['optinal', 'optional'],
  },
  'server:ElicitOptions (ctx.elicit)': {
    give: (o) => inHandler((ctx) => ctx.elicit('Your name?', String, o())),
    typo: ['responseTitel', 'responseTitle'],
  },
  'server:WaitOptions (ctx.elicit of an ask)': {
    give: (o) => inHandler((ctx) => ctx.elicit(elicitRequest('Your name?', String), o())),
    typo: ['timeoutMS', 'timeoutMs'],
  },
  'server:WaitOptions (ctx.listRoots)': {
    give: (o) => inHandler((ctx) => ctx.listRoots(o())),
    typo: ['timeout', 'timeoutMs'],
  },
  'server:ctx.elicitUrl options': {
    give: (o) => inHandler((ctx) => ctx.elicitUrl('Sign in', 'https://example.com/login', o())),
    typo: ['elicitationID', 'elicitationId'],
  },
  'server:ctx.sample options': {
    give: (o) => inHandler((ctx) => ctx.sample('Summarise this', o())),
    typo: ['maxToken', 'maxTokens'],
  },
  'server:HttpRunOptions': {
    give: (o) => server().run(o({ transport: 'http', port: 0 })),
    typo: ['prot', 'port'],
  },
  'server:StdioRunOptions': {
    give: (o) => server().run(o({ transport: 'stdio' })),
    typo: ['transprot', 'transport'],
  },
  'server:RunOptions': {
    give: (o) => server().run(o({ transport: 'http', port: 0 })),
    typo: ['readinesPath', 'readinessPath'],
  },
  'server:CloseOptions': {
    give: async (o) => {
      const running = await server().run({ transport: 'http', port: 0 });
      try {
        await running.close(o());
      } finally {
        await running.close();
      }
    },
    typo: ['graceMS', 'graceMs'],
  },
  'server:CloseOnSignalsOptions': {
    give: (o) => closeOnSignals({ close: async () => {} }, o({ exit: false })),
    typo: ['signal', 'signals'],
  },
  'server:FetchOptions': {
    give: (o) => server().fetch(new Request('http://localhost/mcp', { method: 'POST' }), o()),
    typo: ['authinfo', 'authInfo'],
  },
  'server:MemoryEventStoreOptions': {
    give: (o) => createMemoryEventStore(o()),
    typo: ['maxEvent', 'maxEvents'],
  },
  'server:MemorySessionStoreOptions': {
    give: (o) => createMemorySessionStore(o()),
    typo: ['nw', 'now'],
  },
  'server:MemorySingleUseStoreOptions': {
    give: (o) => createMemorySingleUseStore(o()),
    typo: ['maxEntrys', 'maxEntries'],
  },
  'server:MemoryTaskStoreOptions': {
    give: (o) => createMemoryTaskStore(o()),
    typo: ['maxTask', 'maxTasks'],
  },
  'state-sealing:RequestStateSealerOptions': {
    give: (o) => createRequestStateSealer(o({ audience: 'options' })),
    typo: ['audiance', 'audience'],
  },
  'state-sealing:MemoryReplayStoreOptions': {
    give: (o) => createMemoryReplayStore(o()),
    typo: ['maxEntrys', 'maxEntries'],
  },
  'client:ClientOptions': {
    give: (o) => new Client(url, o()),
    typo: ['maxround', 'maxRounds'],
  },
  'client:ClientAuth (bearerToken)': {
    give: (o) => new Client(url, { auth: o({ bearerToken: 'token' }) }),
    typo: ['bearerTokn', 'bearerToken'],
  },
  'client:ClientAuth (oauth)': {
    give: (o) => new Client(url, { auth: o({ oauth: oauth() }) }),
    typo: ['authorizationResponce', 'authorizationResponse'],
  },
  'client:StdioServerCommand': {
    give: (o) => new Client(o({ command: 'node' })),
    typo: ['arg', 'args'],
  },
  'client:ClientTelemetryOptions': {
    give: (o) => new Client(url, { telemetry: o() }),
    typo: ['tracerprovider', 'tracerProvider'],
  },
  'client:CallOptions': {
    give: (o) => new Client(server()).callTool('t', {}, o()),
    typo: ['maxround', 'maxRounds'],
  },
  'client:SingleRoundOptions': {
    give: (o) =>
      new Client(server()).sendRound({ method: 'tools/call', params: { name: 't' } }, o()),
    typo: ['timeoutms', 'timeoutMs'],
  },
  'client:OAuthProviderOptions': {
    give: (o) => createOAuthProvider(o({ redirectUrl: 'http://127.0.0.1:1/callback' })),
    typo: ['clientname', 'clientName'],
  },
  'client:WorkloadIdentityOptions': {
    give: (o) => createWorkloadIdentityProvider(o({ clientId: 'job', token: 'e30.e30.c2ln' })),
    typo: ['clientid', 'clientId'],
  },
  'client:ConnectionFailureOptions': {
    give: (o) => explainConnectionFailure(new Error('fetch failed'), url, o({ timeoutMs: 1_000 })),
    typo: ['timeoutms', 'timeoutMs'],
  },
  'proxy:ParleyProxyOptions': {
    give: (o) => new ParleyProxy(o({ upstream: url })),
    typo: ['upstreammode', 'upstreamMode'],
  },
  'middleware:ErrorHandlingOptions': {
    give: (o) => new ErrorHandlingMiddleware(o()),
    typo: ['maskErrorDetail', 'maskErrorDetails'],
  },
  'middleware:LoggingOptions': {
    give: (o) => new LoggingMiddleware(o()),
    typo: ['logAnswer', 'logAnswers'],
  },
  'middleware:RateLimitingOptions': {
    give: (o) => new RateLimitingMiddleware(o({ maxFlows: 1, windowMs: 1000 })),
    typo: ['maxKey', 'maxKeys'],
  },
  'middleware:ResponseCachingOptions': {
    give: (o) => new ResponseCachingMiddleware(o()),
    typo: ['ttlMS', 'ttlMs'],
  },
  'middleware:TimingOptions': {
    give: (o) => new TimingMiddleware(o()),
    typo: ['onRounds', 'onRound'],
  },
  'redis:RedisEventStoreOptions': {
    give: (o) => createRedisEventStore(redis, o()),
    typo: ['prefx', 'prefix'],
  },
  'redis:RedisSessionStoreOptions': {
    give: (o) => createRedisSessionStore(redis, o({ subscriber: redisSubscriber })),
    typo: ['prefx', 'prefix'],
  },
  'redis:RedisSingleUseStoreOptions': {
    give: (o) => createRedisSingleUseStore(redis, o()),
    typo: ['clockSkew', 'clockSkewMs'],
  },
  'redis:RedisTaskStoreOptions': {
    give: (o) => createRedisTaskStore(redis, o()),
    typo: ['subscribr', 'subscriber'],
  },
  'redis:RedisStoreOptions': {
    give: (o) => createRedisSingleUseStore(redis, o()),
    typo: ['commandTimeout', 'commandTimeoutMs'],
  },
  'core:CanonicalJsonOptions': {
    give: (o) => canonicalJson({ a: 1 }, o()),
    typo: ['maxdepth', 'maxDepth'],
  },
  'core:InputRequiredInit (inputRequired)': {
    give: (o) => inputRequired(o({ requestState: 'step-2' })),
    typo: ['inputRequest', 'inputRequests'],
  },
  'schema:ResponseTypeOptions': {
    give: (o) => compileResponseType(String, o()),
    typo: ['resposneTitle', 'responseTitle'],
  },
  // Checked before the page is touched, so no DOM is needed to see the refusal.
  'forms:RenderOptions': {
    give: (o) =>
      renderElicitation(
        {} as HTMLElement,
        { message: 'Hi', requestedSchema: { type: 'object', properties: {} } },
        o(),
      ),
    typo: ['signl', 'signal'],
  },
  'testing:EraMatrixOptions': {
    give: (o) => eraMatrix(o({ server })),
    typo: ['transport', 'transports'],
  },
  'testing:MatrixConnectOptions': {
    give: (o) =>
      eraMatrix({ server, eras: ['modern'], transports: ['in-process'] })[0]!.connect(o()),
    typo: ['maxround', 'maxRounds'],
  },
  'testing:RuleOptions': {
    give: (o) => scriptedUser().answer('name', 'Ada', o()),
    typo: ['time', 'times'],
  },
};

/**
 * Refused, but without naming the nearest option: the message lists every option instead.
 * `@parley/state-sealing` depends on nothing, so it has its own key check, without the
 * distance `@parley/core`'s finds a near miss with.
 */
const listsInsteadOfNaming = new Set([
  'state-sealing:RequestStateSealerOptions',
  'state-sealing:MemoryReplayStoreOptions',
]);

/** Options types that take any key, or are not given as one object, and why. */
const open: Record<string, string> = {
  'schema:TitledOptions': 'a response type’s option list, not an options object',
  'core:ParleyErrorOptions': 'an error’s data and cause, set by Parley itself',
  'core:ToJsonRpcErrorOptions': 'Parley’s own mapping of an error to the wire',
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

/** The message of the `TypeError` `give` fails with, given options `build` makes. */
async function refusalOf(give: Case['give'], build: Build): Promise<string> {
  const error = await failureOf(() => give(build));
  expect(error).toBeInstanceOf(TypeError);
  return (error as Error).message;
}

/** The given keys as the object's own. */
const own =
  (extra: object): Build =>
  (base = {}) =>
    ({ ...base, ...extra }) as never;

/** The given keys inherited from the object's prototype, `base` its own. */
const inherited =
  (extra: object): Build =>
  (base = {}) =>
    Object.assign(Object.create(extra) as object, base) as never;

const cases = Object.entries(checked);

describe('options objects refuse keys they do not have', () => {
  test('every exported options type is checked here or listed as open, with a reason', () => {
    const named = new Set([
      ...Object.keys(checked).map((name) => name.replace(/ \(.*\)$/, '')),
      ...Object.keys(open),
    ]);
    const unaccounted = exportedOptionTypes().filter((type) => !named.has(type));
    expect(unaccounted).toEqual([]);
  });

  test.each(cases)('%s: an unknown key is a TypeError that names it', async (_name, { give }) => {
    expect(await refusalOf(give, own({ colour: 'blue' }))).toMatch(/\bcolour is not an option\b/);
  });

  test.each(cases)(
    '%s: a misspelt option is a TypeError naming the option meant',
    async (name, { give, typo: [misspelt, meant] }) => {
      const message = await refusalOf(give, own({ [misspelt]: 1 }));
      expect(message).toContain(`.${misspelt} is not an option; `);
      if (listsInsteadOfNaming.has(name)) expect(message).toMatch(new RegExp(`\\b${meant}\\b`));
      else expect(message).toContain(`did you mean ${meant}?`);
    },
  );

  test.each(cases)(
    '%s: the misspelling, inherited from a prototype, is refused as well',
    async (name, { give, typo: [misspelt, meant] }) => {
      const message = await refusalOf(give, inherited({ [misspelt]: 1 }));
      expect(message).toContain(`.${misspelt} `);
      expect(message).toContain("inherited from the object's prototype");
      if (!listsInsteadOfNaming.has(name)) expect(message).toContain(`did you mean ${meant}?`);
    },
  );

  test.each(cases)('%s: a symbol key is a TypeError that names it', async (_name, { give }) => {
    const symbolKeyed = own({ [Symbol('colour')]: 'blue' });
    expect(await refusalOf(give, symbolKeyed)).toMatch(/\[Symbol\(colour\)\] is not an option/);
  });

  test('the issue’s cases: each is refused, naming the option meant', () => {
    expect(() =>
      server().resource('fares://today', { name: 'fares', mimetype: 'text/plain' } as never, read),
    ).toThrow(
      /^resource 'fares:\/\/today': options\.mimetype is not an option; did you mean mimeType\?/,
    );
    expect(() => elicitRequest('Your name?', String, { resposneTitle: 'Name' } as never)).toThrow(
      /^elicitRequest: options\.resposneTitle is not an option; did you mean responseTitle\?/,
    );
    expect(() => elicitRequest('Your name?', String, { optinal: true } as never)).toThrow(
      /^elicitRequest: options\.optinal is not an option; did you mean optional\?/,
    );
    expect(() =>
      elicitUrlRequest('Sign in', 'https://example.com', { optinal: true } as never),
    ).toThrow(/^elicitUrlRequest: options\.optinal is not an option; did you mean optional\?/);
    expect(() => sampleRequest('Hi', { optinal: true } as never)).toThrow(
      /^sampleRequest: options\.optinal is not an option; did you mean optional\?/,
    );
    expect(() => rootsRequest({ optinal: true } as never)).toThrow(
      /^rootsRequest: options\.optinal is not an option; did you mean optional\?/,
    );
    expect(() =>
      server().resource('fares://today', Object.create({ mimetype: 'text/plain' }) as never, read),
    ).toThrow(
      /options\.mimetype is not an option \(and is inherited from the object's prototype\)/,
    );
    expect(() => rootsRequest({ [Symbol('optional')]: true } as never)).toThrow(
      /^rootsRequest: options\[Symbol\(optional\)\] is not an option; options are named by strings/,
    );
  });

  test('an option the object inherits is refused even when it is a known one', () => {
    const defaults = { name: 'fares', mimeType: 'text/plain' };
    expect(() =>
      server().resource('fares://today', Object.create(defaults) as never, read),
    ).toThrow(
      /^resource 'fares:\/\/today': options\.(name|mimeType) is inherited from the object's prototype; give options as the object's own keys/,
    );
    // Spread, they are its own: accepted.
    expect(() => server().resource('fares://today', { ...defaults }, read)).not.toThrow();
  });

  test('ctx.elicit(ask, options) takes timeoutMs only: the ask carries its labels', async () => {
    const failure = await failureOf(() =>
      inHandler((ctx) =>
        ctx.elicit(elicitRequest('Your name?', String), { responseTitle: 'Name' } as never),
      ),
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error).message).toBe(
      'ctx.elicit(): options.responseTitle is not an option; the options are timeoutMs.',
    );
  });

  test('a misspelt option of ctx.elicit is named on a modern request too, before the era', async () => {
    let thrown: unknown;
    const mcp = server().tool('t', async (_args, ctx) => {
      thrown = await failureOf(() => ctx.elicit('Your name?', String, { timeoutMS: 5 } as never));
      return 'done';
    });
    const client = new Client(mcp, { mode: 'modern' });
    try {
      await client.connect();
      await client.callTool('t', {});
    } finally {
      await client.close();
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect(thrown).not.toBeInstanceOf(EraMismatchError);
    expect((thrown as Error).message).toMatch(
      /^ctx\.elicit\(\): options\.timeoutMS is not an option; did you mean timeoutMs\?/,
    );
  });

  test('a resource takes the fields MCP lists it with, and lists them', async () => {
    const listed = {
      name: 'fares',
      title: 'Today’s fares',
      description: 'Fares from Lisbon',
      mimeType: 'text/plain',
      size: 120,
      annotations: { audience: ['user' as const], priority: 0.5 },
      icons: [{ src: 'https://example.com/fares.png', mimeType: 'image/png' }],
      _meta: { 'example.com/source': 'fares' },
    };
    const mcp = server().resource('fares://today', { ...listed, cacheable: true }, read);
    const client = new Client(mcp);
    try {
      await client.connect();
      expect(await client.listResources()).toEqual([{ uri: 'fares://today', ...listed }]);
    } finally {
      await client.close();
    }
  });

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
    expect(() => server().tool('t', { inputSchmea: {} } as never, read)).toThrow(
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
