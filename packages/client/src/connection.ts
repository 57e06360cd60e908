import {
  HANDSHAKE_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSIONS,
  UnsupportedProtocolVersionError,
  isRecord,
  type ClientCapabilities,
  type Era,
  type Implementation,
} from '@parley/core';
import {
  Client as McpClient,
  InMemoryTransport,
  OAuthClientFlowError,
  OAuthError,
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type ClientOptions as McpClientOptions,
  type Transport,
  type VersionNegotiationMode,
} from '@modelcontextprotocol/client';

import { explainConnectionFailure } from './connectionFailure.ts';
import {
  ConnectionFailedError,
  handshakeUnavailable,
  modernUnavailable,
  unsupportedVersionData,
} from './errors.ts';
import { DpopNonceError, WorkloadIdentityError } from './http/authErrors.ts';
import { createHttpTransport } from './http/httpTransport.ts';
import { isNotMcp, LastAnswer, type EndpointAnswer } from './http/lastAnswer.ts';
import { carryPushedSchemas } from './pushedSchemas.ts';
import { relayCreatedTasks } from './tasks/createdTasks.ts';
import type { ResolvedHttpOptions } from './http/httpOptions.ts';
import type { ResolvedTarget } from './targets.ts';
import type { ClientMode, ListChangedKind } from './types.ts';

/** One live connection: the SDK client, what it negotiated, and how to end it. */
export interface Connection {
  sdk: McpClient;
  era: Era;
  protocolVersion: string;
  close(): Promise<void>;
}

/** What every connection is built with. */
export interface ConnectionSetup {
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
  /** `auth`, `headers` and `fetch` of an HTTP target. */
  http: ResolvedHttpOptions | undefined;
  /** Registers the handlers for requests a handshake-era server pushes. */
  register(sdk: McpClient): void;
  /** Told when the server's lists change (the SDK listens for it in either era). */
  onListChanged?: ((kind: ListChangedKind) => void) | undefined;
}

/** The SDK's list-change watching, telling `onListChanged` without listing again itself. */
function listChangedOf(
  onListChanged: ((kind: ListChangedKind) => void) | undefined,
): McpClientOptions['listChanged'] {
  if (onListChanged === undefined) return undefined;
  const tell = (kind: ListChangedKind) => ({
    autoRefresh: false,
    debounceMs: 0,
    onChanged: () => {
      try {
        onListChanged(kind);
      } catch {
        // An observer must not break the connection it observes.
      }
    },
  });
  return { tools: tell('tools'), prompts: tell('prompts'), resources: tell('resources') };
}

/** The in-process modern endpoint's URL; it never leaves the process. */
const IN_PROCESS_URL = 'http://in-process.parley.invalid/mcp';

const NEGOTIATION: Record<ClientMode, VersionNegotiationMode> = {
  auto: 'auto',
  modern: { pin: MODERN_PROTOCOL_VERSION },
  handshake: 'legacy',
};

function newSdkClient(setup: ConnectionSetup, mode: ClientMode): McpClient {
  const sdk = new McpClient(setup.clientInfo, {
    capabilities: setup.capabilities as McpClientOptions['capabilities'],
    versionNegotiation: { mode: NEGOTIATION[mode] },
    // Parley drives every round itself (see modernRounds.ts): the SDK hands each input_required
    // result back (allowInputRequired) and fulfils nothing on its own.
    inputRequired: { autoFulfill: false },
    ...(setup.onListChanged === undefined
      ? {}
      : { listChanged: listChangedOf(setup.onListChanged) }),
  });
  setup.register(sdk);
  return sdk;
}

/**
 * A modern connection attempt failed because the server is not modern: the SDK's pin mode says
 * so with `ERA_NEGOTIATION_FAILED` (without a `cause`; with one, the probe itself failed, say
 * nothing listens at the URL, and that error stays as it is; and not after a 5xx, which is a
 * failing server or a forwarder's report, not an era), or the server answered `-32022`
 * offering no modern version.
 */
function asModernUnavailable(error: unknown, label: string): unknown {
  const status = (error as { data?: { status?: unknown } }).data?.status;
  if (
    error instanceof SdkError &&
    error.code === SdkErrorCode.EraNegotiationFailed &&
    error.cause === undefined &&
    !(typeof status === 'number' && status >= 500)
  ) {
    return modernUnavailable(label, [], error);
  }
  const data = unsupportedVersionData(error);
  if (data === undefined) return error;
  const speaksModern = data.supported.some((v) => MODERN_PROTOCOL_VERSIONS.includes(v));
  return speaksModern
    ? new UnsupportedProtocolVersionError(data, { cause: error })
    : modernUnavailable(label, data.supported, error);
}

/**
 * A sign-in that failed while the SDK probed for the protocol version reaches `connect()`
 * wrapped in the probe's `ERA_NEGOTIATION_FAILED`; the caller gets the sign-in's own error
 * (`UnauthorizedError`, `OAuthError`, an issuer mismatch, `DpopNonceError`…), as in every
 * other mode.
 */
function unwrapSignInFailure(error: unknown): unknown {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const isSignInFailure =
    cause instanceof UnauthorizedError ||
    cause instanceof OAuthError ||
    cause instanceof OAuthClientFlowError ||
    cause instanceof DpopNonceError ||
    cause instanceof WorkloadIdentityError;
  return error instanceof SdkError &&
    error.code === SdkErrorCode.EraNegotiationFailed &&
    isSignInFailure
    ? cause
    : error;
}

/**
 * The spec tells clients to read a result without `resultType` as complete; the SDK's modern
 * codec refuses it instead. Fill it in before the SDK decodes, once the connection is known to
 * be modern (the probe itself still sees the raw reply).
 */
function readMissingResultTypeAsComplete(transport: Transport): void {
  const deliver = transport.onmessage;
  if (deliver === undefined) return;
  transport.onmessage = (message, extra) => {
    const result = (message as { result?: unknown }).result;
    if ('id' in message && isRecord(result) && result.resultType === undefined) {
      return deliver({ ...message, result: { ...result, resultType: 'complete' } }, extra);
    }
    return deliver(message, extra);
  };
}

async function connectSdk(
  sdk: McpClient,
  transport: Transport,
  after: () => Promise<void> = async () => {},
): Promise<Connection> {
  await sdk.connect(transport);
  const era: Era = sdk.getProtocolEra() === 'modern' ? 'modern' : 'handshake';
  if (era === 'modern') readMissingResultTypeAsComplete(transport);
  else carryPushedSchemas(transport);
  relayCreatedTasks(transport, era);
  return {
    sdk,
    era,
    protocolVersion: sdk.getNegotiatedProtocolVersion() ?? MODERN_PROTOCOL_VERSION,
    close: async () => {
      // A handshake-era HTTP session is server state: end it rather than let it time out.
      if (era === 'handshake' && transport instanceof StreamableHTTPClientTransport) {
        await transport.terminateSession().catch(() => {});
      }
      await sdk.close();
      await after();
    },
  };
}

async function transportFor(
  target: ResolvedTarget,
  http: ResolvedHttpOptions | undefined,
): Promise<Transport> {
  switch (target.kind) {
    case 'in-process': {
      const { server } = target;
      return new StreamableHTTPClientTransport(new URL(IN_PROCESS_URL), {
        fetch: (input, init) => server.fetch(new Request(input, init)),
      });
    }
    case 'http':
      return createHttpTransport(target.url, http);
    case 'stdio': {
      // Node-only, so loaded only when a stdio target connects.
      const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
      const { command, args, env, cwd, stderr } = target.command;
      return new StdioClientTransport({
        command,
        ...(args !== undefined ? { args } : {}),
        ...(env !== undefined ? { env } : {}),
        ...(cwd !== undefined ? { cwd } : {}),
        stderr: stderr ?? 'inherit',
      });
    }
  }
}

/** A handshake-era session with a server in this process, over a linked in-memory pair. */
async function connectInProcessHandshake(
  target: Extract<ResolvedTarget, { kind: 'in-process' }>,
  setup: ConnectionSetup,
): Promise<Connection> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const session = await target.server.connect(serverSide);
  try {
    return await connectSdk(newSdkClient(setup, 'handshake'), clientSide, () => session.close());
  } catch (error) {
    await session.close().catch(() => {});
    throw error;
  }
}

/**
 * Connect in `mode`. In-process, `'auto'` tries the modern endpoint (`fetch`) first and falls
 * back to a handshake session (`connect`) when the server does not speak 2026-07-28; over HTTP
 * and stdio the SDK's own probe (`server/discover`, with its `-32022` correction) decides.
 */
export async function openConnection(
  target: ResolvedTarget,
  mode: ClientMode,
  setup: ConnectionSetup,
): Promise<Connection> {
  if (target.kind === 'in-process') {
    if (mode === 'handshake') return connectInProcessHandshake(target, setup);
    const sdk = newSdkClient(setup, 'modern');
    try {
      return await connectSdk(sdk, await transportFor(target, setup.http));
    } catch (error) {
      await sdk.close().catch(() => {});
      const mapped = asModernUnavailable(error, target.label);
      const handshakeOnly =
        mapped instanceof UnsupportedProtocolVersionError && !speaksModern(mapped);
      if (mode === 'auto' && handshakeOnly) return connectInProcessHandshake(target, setup);
      throw mapped;
    }
  }
  const answers = target.kind === 'http' ? new LastAnswer() : undefined;
  const sdk = newSdkClient(setup, mode);
  try {
    const http = answers === undefined ? setup.http : answers.watch(setup.http);
    return await connectSdk(sdk, await transportFor(target, http));
  } catch (error) {
    await sdk.close().catch(() => {});
    throw connectFailure(error, target, mode, answers?.answer);
  }
}

/**
 * What `connect()` throws for `error`: a sign-in's own error; over HTTP, a
 * {@link ConnectionFailedError} when no MCP server answered at the URL (before any era is
 * judged, so a 404 page is never read as "an older server"); then the typed error of a server
 * of the other era than the one `mode` pins; else `error` as it is.
 */
function connectFailure(
  error: unknown,
  target: ResolvedTarget,
  mode: ClientMode,
  answer: EndpointAnswer | undefined,
): unknown {
  const unwrapped = unwrapSignInFailure(error);
  if (unwrapped !== error) return unwrapped;
  if (target.kind === 'http') {
    const failed = connectionFailed(error, String(target.url), answer);
    if (failed !== undefined) return failed;
  }
  if (mode === 'modern') return asModernUnavailable(error, target.label);
  if (mode === 'handshake') return asHandshakeUnavailable(error, target.label);
  return error;
}

/** Errors a failed connection attempt is made of, outermost first. */
function causes(error: unknown): { code?: unknown; message?: unknown }[] {
  const found: { code?: unknown; message?: unknown }[] = [];
  let current = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth += 1) {
    found.push(current as { code?: unknown; message?: unknown });
    current = (current as { cause?: unknown }).cause;
  }
  return found;
}

const UNREACHABLE = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'];
const LATE = ['REQUEST_TIMEOUT', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT'];

/**
 * A {@link ConnectionFailedError} when nothing listens at `url`, its host does not exist, or
 * the endpoint last answered what no MCP server does (a 404, a 405, an HTML page); `undefined`
 * for every other failure (timeouts and authorization are the host's to word).
 */
function connectionFailed(
  error: unknown,
  url: string,
  answer: EndpointAnswer | undefined,
): ConnectionFailedError | undefined {
  const chain = causes(error);
  const unreachable = chain.some(
    (e) => (typeof e.code === 'string' && UNREACHABLE.includes(e.code)) || e.message === 'bad port',
  );
  // A request that got no answer in time failed by itself, whatever an earlier one answered.
  const late = chain.some((e) => typeof e.code === 'string' && LATE.includes(e.code));
  const notMcp = !unreachable && !late && answer !== undefined && isNotMcp(answer);
  if (!unreachable && !notMcp) return undefined;
  const data = {
    url,
    status: notMcp ? answer.status : undefined,
    statusText: notMcp ? answer.statusText : undefined,
    contentType: notMcp ? answer.contentType : undefined,
  };
  const sentence = explainConnectionFailure({ data, cause: error }, url, { timeoutMs: 0 });
  return sentence === undefined ? undefined : new ConnectionFailedError(sentence, data, error);
}

/**
 * A handshake connection attempt failed because the server is modern only: it refused
 * `initialize` with `-32022`, offering no handshake-era version.
 */
function asHandshakeUnavailable(error: unknown, label: string): unknown {
  const data = unsupportedVersionData(error);
  if (data === undefined) return error;
  const speaksHandshake = data.supported.some((v) => HANDSHAKE_PROTOCOL_VERSIONS.includes(v));
  return speaksHandshake
    ? new UnsupportedProtocolVersionError(data, { cause: error })
    : handshakeUnavailable(label, data, error);
}

function speaksModern(error: UnsupportedProtocolVersionError): boolean {
  return (error.data?.supported ?? []).some((v) => MODERN_PROTOCOL_VERSIONS.includes(v));
}
