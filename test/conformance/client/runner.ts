/**
 * The Parley client as the conformance suite's client under test. The harness starts it as
 * `<command> <server URL>` with `MCP_CONFORMANCE_SCENARIO`, `MCP_CONFORMANCE_PROTOCOL_VERSION`
 * and, for some scenarios, `MCP_CONFORMANCE_CONTEXT` (JSON) set; it runs on the project's
 * Node 20 (the harness itself needs Node 22).
 *
 * Each scenario gets what it asks of a client, done with `@parley/client`'s public API only:
 * the lifecycle follows the protocol version (a handshake for 2025-11-25 and earlier,
 * per-request metadata for 2026-07-28), every `auth/*` scenario signs in through the
 * client's OAuth support, and every elicitation is accepted with the schema's defaults
 * (SEP-1034) plus a value of the right kind for a required field that has none. A scenario
 * the runner does not know fails loudly instead of passing by accident.
 */
import {
  ClientCredentialsProvider,
  CrossAppAccessProvider,
  PrivateKeyJwtProvider,
  requestJwtAuthorizationGrant,
} from '@modelcontextprotocol/client';

import {
  Client,
  createOAuthProvider,
  createWorkloadIdentityProvider,
  type ClientAuth,
  type ClientMode,
  type ClientOptions,
  type ElicitationHandler,
  type ResponseBuilder,
} from '@parley/client';

const MODERN = '2026-07-28';

const serverUrl = process.argv.at(-1) ?? '';
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const protocolVersion = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? '2025-11-25';
const mode: ClientMode = protocolVersion >= MODERN ? 'modern' : 'handshake';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, unknown>;

/** A value for each required field the schema gives no default for; defaults fill the rest. */
function fill(responseType: ResponseBuilder): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of responseType.fields) {
    if (!field.required || field.default !== undefined) continue;
    const first = field.options?.[0]?.value;
    values[field.name] =
      field.kind === 'boolean'
        ? true
        : field.kind === 'number' || field.kind === 'integer'
          ? (field.minimum ?? 1)
          : field.kind === 'multi-select'
            ? first === undefined
              ? []
              : [first]
            : (first ?? 'conformance');
  }
  return values;
}

const acceptWithDefaults: ElicitationHandler = (_message, responseType) =>
  responseType(fill(responseType));

// ---- Sign-in ----------------------------------------------------------------------------------

/** The suite's fixed client metadata document URL (Client ID Metadata Documents). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
const REDIRECT_URL = 'http://localhost:3000/callback';

/**
 * The suite's authorization server signs the user in at once: it answers the authorization URL
 * with a redirect to `redirect_uri` carrying `code`, `state` and `iss`. Following it by hand is
 * this runner's "user at the browser".
 */
async function signInAtOnce(authorizationUrl: URL): Promise<URL> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (location === null) {
    throw new Error(
      `runner: the authorization server answered ${response.status} without a redirect`,
    );
  }
  return new URL(location, authorizationUrl);
}

function stringFrom(name: string): string {
  const value = context[name];
  if (typeof value !== 'string') {
    throw new TypeError(`runner: ${scenario} needs ${name} in MCP_CONFORMANCE_CONTEXT`);
  }
  return value;
}

/**
 * How each scenario authenticates: the user's sign-in, or (the unscored extensions) one of the
 * SDK's machine-to-machine providers, which `auth.oauth` takes as they are.
 */
function authFor(name: string): ClientAuth | undefined {
  if (name === 'auth/client-credentials-basic') {
    return {
      oauth: new ClientCredentialsProvider({
        clientId: stringFrom('client_id'),
        clientSecret: stringFrom('client_secret'),
      }),
    };
  }
  if (name === 'auth/client-credentials-jwt') {
    const algorithm = context.signing_algorithm;
    return {
      oauth: new PrivateKeyJwtProvider({
        clientId: stringFrom('client_id'),
        privateKey: stringFrom('private_key_pem'),
        algorithm: typeof algorithm === 'string' ? algorithm : 'ES256',
      }),
    };
  }
  if (name === 'auth/enterprise-managed-authorization') {
    return {
      oauth: new CrossAppAccessProvider({
        clientId: stringFrom('client_id'),
        clientSecret: stringFrom('client_secret'),
        assertion: async (grant) =>
          (
            await requestJwtAuthorizationGrant({
              tokenEndpoint: stringFrom('idp_token_endpoint'),
              audience: grant.authorizationServerUrl,
              resource: grant.resourceUrl,
              idToken: stringFrom('idp_id_token'),
              clientId: stringFrom('idp_client_id'),
              fetchFn: grant.fetchFn,
            })
          ).jwtAuthGrant,
      }),
    };
  }
  // SEP-1933: the workload's identity token, exchanged with the JWT-bearer grant (RFC 7523).
  if (name === 'auth/wif-jwt-bearer') {
    return {
      oauth: createWorkloadIdentityProvider({
        clientId: stringFrom('client_id'),
        token: stringFrom('valid_jwt'),
      }),
    };
  }
  if (!name.startsWith('auth/')) return undefined;
  const preRegistered =
    name === 'auth/pre-registration'
      ? {
          clientInformation: {
            client_id: stringFrom('client_id'),
            client_secret: stringFrom('client_secret'),
            redirect_uris: [REDIRECT_URL],
          },
        }
      : {};
  return {
    oauth: createOAuthProvider({
      redirectUrl: REDIRECT_URL,
      clientName: 'parley-conformance-client',
      clientMetadataUrl: CLIENT_METADATA_URL,
      ...preRegistered,
      // SEP-1932: DPoP-bound tokens, proofs on every request, nonces from both servers.
      ...(name === 'auth/dpop' || name === 'auth/dpop-nonce' ? { dpop: true } : {}),
    }),
    authorizationResponse: signInAtOnce,
  };
}

// ---- Scenarios --------------------------------------------------------------------------------

type Scenario = (client: Client) => Promise<void>;

/** Look around: connect and list the tools (the connect itself is what is checked). */
const listTools: Scenario = async (client) => {
  await client.listTools();
};

/** Sign in (the scenario's server refuses everything before), then use the tool it serves. */
const signedIn: Scenario = async (client) => {
  await client.listTools();
  await client.callTool('test-tool', {});
};

/** The calls the scenario asks for, from `MCP_CONFORMANCE_CONTEXT.toolCalls`, after a listing. */
const contextToolCalls: Scenario = async (client) => {
  await client.listTools();
  const calls = (context.toolCalls ?? []) as {
    name: string;
    arguments?: Record<string, unknown>;
  }[];
  for (const call of calls) await client.callTool(call.name, call.arguments ?? {});
};

const scenarios: Record<string, Scenario> = {
  initialize: listTools,
  tools_call: async (client) => {
    await client.listTools();
    await client.callTool('add_numbers', { a: 5, b: 3 });
  },
  'elicitation-sep1034-client-defaults': async (client) => {
    await client.callTool('test_client_elicitation_defaults', {});
  },
  // The server closes the call's stream before answering; the SDK transport reconnects with
  // Last-Event-ID after the retry delay the server set, and the answer arrives on the new stream.
  'sse-retry': async (client) => {
    await client.listTools();
    await client.callTool('test_reconnection', {});
  },
  'request-metadata': async (client) => {
    await client.listTools();
  },
  'sep-2322-client-request-state': async (client) => {
    // The unrelated call runs while an echo flow is mid-round, to prove nothing leaks into it.
    await client.listTools();
    await Promise.all([
      client.callTool('test_mrtr_echo_state', {}),
      client.callTool('test_mrtr_unrelated', {}),
    ]);
    await client.callTool('test_mrtr_no_state', {});
    await client.callTool('test_mrtr_no_result_type', {});
  },
  // SEP-2243: each request names its method (and target) in headers.
  'http-standard-headers': async (client) => {
    const [tool] = await client.listTools();
    if (tool !== undefined) await client.callTool(tool.name, {});
    const [resource] = await client.listResources();
    if (resource !== undefined) await client.readResource(resource.uri);
    const [prompt] = await client.listPrompts();
    if (prompt !== undefined) await client.getPrompt(prompt.name, {});
  },
  // SEP-2243: arguments a tool marks with x-mcp-header are mirrored into Mcp-Param-* headers.
  'http-custom-headers': contextToolCalls,
  // SEP-2243: tools with malformed x-mcp-header declarations are left out of the listing, so
  // only the valid ones can be called.
  'http-invalid-tool-headers': async (client) => {
    for (const tool of await client.listTools()) {
      await client.callTool(tool.name, { region: 'us-west1' });
    }
  },
  // SEP-2106: listing a tool whose output schema has a network $ref must not fetch it.
  'json-schema-ref-no-deref': listTools,
  // SEP-1613: the listed input schema comes back exactly as the server wrote it.
  'json-schema-2020-12-preservation': async (client) => {
    const tools = await client.listTools();
    const focal = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
    if (focal === undefined) throw new Error('runner: json_schema_2020_12_tool is not listed');
    await client.callTool('json_schema_echo', { schema: focal.inputSchema });
  },
  'auth/client-credentials-basic': listTools,
  'auth/client-credentials-jwt': listTools,
  'auth/enterprise-managed-authorization': listTools,
  'auth/wif-jwt-bearer': listTools,
};

function scenarioFor(name: string): Scenario | undefined {
  return scenarios[name] ?? (name.startsWith('auth/') ? signedIn : undefined);
}

async function main(): Promise<void> {
  if (!URL.canParse(serverUrl)) {
    throw new TypeError(`runner: expected the server URL as the last argument, got ${serverUrl}`);
  }
  const run = scenarioFor(scenario);
  if (run === undefined) throw new Error(`runner: no client behaviour for scenario '${scenario}'`);
  const auth = authFor(scenario);
  const options: ClientOptions = {
    mode,
    clientInfo: { name: 'parley-conformance-client', version: '1.0.0' },
    elicitationHandler: acceptWithDefaults,
    ...(auth !== undefined ? { auth } : {}),
  };
  await using client = new Client(serverUrl, options);
  await client.connect();
  await run(client);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`[parley runner] ${scenario} at ${protocolVersion}:`, error);
    process.exit(1);
  },
);
