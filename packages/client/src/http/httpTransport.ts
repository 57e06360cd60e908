import {
  StreamableHTTPClientTransport,
  isDpopNonceChallenge,
  type FetchLike,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';

import type { ResolvedHttpOptions } from './httpOptions.ts';
import { activeTraceparent } from '../telemetry.ts';
import { answerNonceChallengesOnce } from './dpopNonces.ts';
import { OAuthSignIn } from './oauthSignIn.ts';
import { retryOnReset } from './retryOnReset.ts';
import { noteTokenAnswer } from './workloadIdentity.ts';

/**
 * The SDK transport for an HTTP server, with the client's `auth`, `headers` and `fetch`:
 * a bearer token through the SDK's minimal `AuthProvider`, OAuth through the SDK's own flows
 * (and Parley's sign-in completion, see `OAuthSignIn`), and the extra headers on requests to the
 * MCP endpoint only, never on the authorization server's.
 */
export function createHttpTransport(
  url: URL,
  http: ResolvedHttpOptions | undefined,
): StreamableHTTPClientTransport {
  if (http === undefined) {
    return new StreamableHTTPClientTransport(url, {
      fetch: endpointFetch(url, NO_HTTP_OPTIONS, undefined),
    });
  }
  const { auth } = http;
  const signIn = auth?.kind === 'oauth' ? new OAuthSignIn(auth) : undefined;
  const transport = new StreamableHTTPClientTransport(url, {
    fetch: endpointFetch(url, http, signIn?.provider),
    ...(auth?.kind === 'bearer' ? { authProvider: { token: auth.token } } : {}),
    ...(signIn !== undefined ? { authProvider: signIn.provider } : {}),
  });
  signIn?.completeOn(transport);
  return transport;
}

const NO_HTTP_OPTIONS: ResolvedHttpOptions = {
  auth: undefined,
  headers: undefined,
  fetch: undefined,
};

function sameEndpoint(input: string | URL, endpoint: URL): boolean {
  const target = new URL(String(input));
  return target.origin === endpoint.origin && target.pathname === endpoint.pathname;
}

/**
 * The `fetch` every request goes through. Requests to the MCP endpoint get the extra headers
 * (the transport's own win on a clash, so they cannot break the protocol). A `401` to a request
 * that carried a token means the token no longer works: the provider's cached discovery is
 * dropped, as the SDK asks hosts to do, so a server that moved to another authorization server
 * is found again. A request that can be repeated is, once, when its connection was lost before
 * any answer (see `retryOnReset`). A DPoP nonce challenge is answered once (`dpopNonces.ts`),
 * and a refused token request is noted for the workload identity provider (`noteTokenAnswer`).
 */
function endpointFetch(
  endpoint: URL,
  http: ResolvedHttpOptions,
  oauth: OAuthClientProvider | undefined,
): FetchLike {
  const given: FetchLike = http.fetch ?? ((input, init) => fetch(input, init));
  const base =
    oauth === undefined
      ? given
      : answerNonceChallengesOnce(given, (url) =>
          sameEndpoint(url, endpoint) ? 'MCP server' : 'authorization server',
        );
  const toAuthorizationServer =
    oauth === undefined ? base : oneRefreshPerToken(noteTokenAnswers(base));
  const toEndpoint = retryOnReset(base);
  const extra = http.headers;
  return async (input, init) => {
    if (!sameEndpoint(input, endpoint)) return toAuthorizationServer(input, init);
    const headers = new Headers(init?.headers);
    for (const [name, value] of Object.entries(extra ?? {})) {
      if (!headers.has(name)) headers.set(name, value);
    }
    // The request's span (see telemetry.ts), found through the active context.
    const traceparent = activeTraceparent();
    if (traceparent !== undefined && !headers.has('traceparent')) {
      headers.set('traceparent', traceparent);
    }
    const response = await toEndpoint(input, { ...init, headers });
    // A DPoP nonce challenge says nothing about the token: it is answered, not re-discovered.
    if (
      response.status === 401 &&
      headers.has('authorization') &&
      !isDpopNonceChallenge(response)
    ) {
      await oauth?.invalidateCredentials?.('discovery');
    }
    return response;
  };
}

/** The answers to token requests, noted for the workload identity provider (`noteTokenAnswer`). */
function noteTokenAnswers(base: FetchLike): FetchLike {
  return async (input, init) => {
    const response = await base(input, init);
    if (init?.method === 'POST' && init.body instanceof URLSearchParams) {
      await noteTokenAnswer(init.body, String(input), response);
    }
    return response;
  };
}

/** How long the answer to a refresh stays around for late requests with the same token. */
const REFRESH_REPLAY_MS = 30_000;

/**
 * One token request per refresh token. Two requests that hit a `401` together (a handshake
 * session's event stream and a call, say) each start a refresh with the same refresh token; an
 * authorization server that rotates refresh tokens honours the first and answers the second
 * `invalid_grant`, and the SDK then throws the tokens away and sends the user to sign in again.
 * So the second (and any within a short while after) gets a copy of the first one's answer.
 */
function oneRefreshPerToken(base: FetchLike): FetchLike {
  const answers = new Map<string, { response: Promise<Response>; until: number }>();
  return async (input, init) => {
    const body = init?.body;
    if (
      init?.method !== 'POST' ||
      !(body instanceof URLSearchParams) ||
      body.get('grant_type') !== 'refresh_token'
    ) {
      return base(input, init);
    }
    const now = Date.now();
    for (const [key, entry] of answers) if (entry.until <= now) answers.delete(key);
    const key = `${String(input)}\n${body.get('refresh_token') ?? ''}`;
    let entry = answers.get(key);
    if (entry === undefined) {
      entry = { response: base(input, init), until: now + REFRESH_REPLAY_MS };
      answers.set(key, entry);
      entry.response.catch(() => answers.delete(key));
    }
    // The kept original is never read, so every caller can have a copy of its body.
    return (await entry.response).clone();
  };
}
