import { checkOptionKeys, isRecord, optionKeys } from '@parley/core';
import type { FetchLike, OAuthClientProvider } from '@modelcontextprotocol/client';

import type { AuthorizationResponse, BearerToken, ClientOptions, OAuthAuth } from '../types.ts';

/** How requests to an HTTP server are authorized, as checked at construction. */
export type ResolvedAuth =
  | { kind: 'bearer'; token: () => Promise<string | undefined> }
  | {
      kind: 'oauth';
      provider: OAuthClientProvider;
      authorizationResponse: ((url: URL) => Promise<AuthorizationResponse>) | undefined;
    };

/** The HTTP options of a client, checked. */
export interface ResolvedHttpOptions {
  auth: ResolvedAuth | undefined;
  headers: Readonly<Record<string, string>> | undefined;
  fetch: FetchLike | undefined;
}

/** Header names the transport and the protocol own. */
const RESERVED_HEADER =
  /^(authorization|content-type|content-length|accept|last-event-id|host|mcp-.*)$/i;
/** RFC 9110 `token`: what a header name may be made of. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function checkHeaders(value: unknown): Readonly<Record<string, string>> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw new TypeError('Client: headers must map header names to strings.');
  for (const [name, header] of Object.entries(value)) {
    if (!HEADER_NAME.test(name)) {
      throw new TypeError(`Client: headers: ${JSON.stringify(name)} is not a header name.`);
    }
    if (RESERVED_HEADER.test(name)) {
      const instead = /^authorization$/i.test(name) ? ' (use auth for authorization)' : '';
      throw new TypeError(`Client: headers: '${name}' is set by the client itself${instead}.`);
    }
    if (typeof header !== 'string' || /[\r\n\0]/.test(header)) {
      throw new TypeError(
        `Client: headers: the value of '${name}' must be a string without line breaks.`,
      );
    }
  }
  return Object.freeze({ ...(value as Record<string, string>) });
}

function bearerTokenOf(value: unknown): () => Promise<string | undefined> {
  if (typeof value === 'string') {
    if (value.length === 0 || /[\s]/.test(value)) {
      throw new TypeError('Client: auth.bearerToken must be a non-empty token without spaces.');
    }
    return async () => value;
  }
  if (typeof value !== 'function') {
    throw new TypeError('Client: auth.bearerToken must be a string or a function returning one.');
  }
  const get = value as Exclude<BearerToken, string>;
  return async () => {
    const token = await get();
    if (token !== undefined && (typeof token !== 'string' || token.length === 0)) {
      throw new TypeError(
        'Client: auth.bearerToken() must return a non-empty string or undefined.',
      );
    }
    return token;
  };
}

function isOAuthProvider(value: unknown): value is OAuthClientProvider {
  // The SDK's own test: a provider has tokens() and clientInformation().
  return (
    isRecord(value) &&
    typeof value.tokens === 'function' &&
    typeof value.clientInformation === 'function' &&
    typeof value.saveTokens === 'function'
  );
}

const BEARER_OPTIONS = optionKeys<{ bearerToken: BearerToken }>()(['bearerToken']);
const OAUTH_OPTIONS = optionKeys<OAuthAuth>()(['oauth', 'authorizationResponse']);

function checkAuth(value: unknown): ResolvedAuth | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    throw new TypeError(
      'Client: auth must be { bearerToken } or { oauth, authorizationResponse }.',
    );
  }
  if ('bearerToken' in value) {
    if ('oauth' in value) throw new TypeError('Client: auth takes bearerToken or oauth, not both.');
    checkOptionKeys('Client', 'options.auth', value, BEARER_OPTIONS);
    return { kind: 'bearer', token: bearerTokenOf(value.bearerToken) };
  }
  if (!('oauth' in value)) {
    throw new TypeError(
      'Client: auth must be { bearerToken } or { oauth, authorizationResponse }.',
    );
  }
  if (!isOAuthProvider(value.oauth)) {
    throw new TypeError(
      "Client: auth.oauth must be an OAuthClientProvider (the SDK's shape, e.g. createOAuthProvider()).",
    );
  }
  const response = value.authorizationResponse;
  if (response !== undefined && typeof response !== 'function') {
    throw new TypeError('Client: auth.authorizationResponse must be a function.');
  }
  checkOptionKeys('Client', 'options.auth', value, OAUTH_OPTIONS);
  return {
    kind: 'oauth',
    provider: value.oauth,
    authorizationResponse: response as ((url: URL) => Promise<AuthorizationResponse>) | undefined,
  };
}

/**
 * Check `auth`, `headers` and `fetch`. They describe HTTP requests, so they are refused for an
 * in-process or stdio target rather than silently ignored.
 */
export function resolveHttpOptions(
  options: Pick<ClientOptions, 'auth' | 'headers' | 'fetch'>,
  targetKind: 'http' | 'in-process' | 'stdio',
): ResolvedHttpOptions | undefined {
  const given = (['auth', 'headers', 'fetch'] as const).filter((key) => options[key] !== undefined);
  if (given.length === 0) return undefined;
  if (targetKind !== 'http') {
    throw new TypeError(
      `Client: ${given.join(', ')} ${given.length === 1 ? 'applies' : 'apply'} to HTTP targets only; this target is ${targetKind === 'stdio' ? 'a stdio command' : 'an in-process server'}.`,
    );
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new TypeError('Client: fetch must be a function (input, init) => Promise<Response>.');
  }
  return {
    auth: checkAuth(options.auth),
    headers: checkHeaders(options.headers),
    fetch: options.fetch,
  };
}
