import { checkOptionKeys, isRecord, optionKeys, type OptionKeys } from '@parley/core';
import type { AuthInfo } from '@modelcontextprotocol/server';

import { loadSdk } from '../utils/loadSdk.ts';

/**
 * Requiring a principal on HTTP (`http.auth`): every request to the endpoint carries a bearer
 * token, the host's `verifyToken` says whose it is, and the principal it returns is what
 * sealed state binds to. A refused request gets `401` (or `403 insufficient_scope`) with the
 * `WWW-Authenticate: Bearer …` challenge the SDK's helpers build; with `authorizationServers`
 * the server also publishes its OAuth protected resource metadata (RFC 9728), which the
 * challenge points to, so an OAuth client finds where to sign in.
 */

/** Options of `http.auth`. */
export interface HttpAuthOptions {
  /**
   * Whose token is this? Return the principal (`clientId` is who sealed state is bound to, so
   * put the user's identity there), or `undefined` to refuse it with `401 invalid_token`.
   * Throw the SDK's `OAuthError` to refuse with its code (`insufficient_scope` is a `403`).
   * Any other exception refuses the request too (`401`), and is reported through `onError`.
   */
  verifyToken(
    token: string,
    request: Request,
  ): AuthInfo | undefined | Promise<AuthInfo | undefined>;
  /** Scopes every token must carry; one without them gets `403 insufficient_scope`. */
  requiredScopes?: string[];
  /**
   * The authorization servers whose tokens this server accepts (their issuer URLs). Given, the
   * server serves its protected resource metadata at
   * `/.well-known/oauth-protected-resource<path>` and names it in every challenge.
   */
  authorizationServers?: string[];
  /** Scopes the metadata lists as understood here (`scopes_supported`). */
  scopesSupported?: string[];
  /** A name for the metadata (`resource_name`). */
  resourceName?: string;
  /**
   * The endpoint's public URL, when requests arrive at another one (behind a proxy). Default:
   * the URL each request was made to.
   */
  resourceUrl?: string | URL;
}

const METADATA_PREFIX = '/.well-known/oauth-protected-resource';

/** Where the protected resource metadata of the endpoint at `resource` is served. */
export function protectedResourceMetadataPath(resource: URL): string {
  const path = resource.pathname === '/' ? '' : resource.pathname;
  return `${METADATA_PREFIX}${path}`;
}

function checkUrls(name: string, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => URL.canParse(v))) {
    throw new TypeError(`ParleyServer: http.auth.${name} must be a non-empty list of URLs.`);
  }
  return value as string[];
}

function checkStrings(name: string, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v.length > 0)) {
    throw new TypeError(`ParleyServer: http.auth.${name} must be a list of non-empty strings.`);
  }
  return value as string[];
}

/** Where a request's challenge and metadata say the endpoint is. */
function resourceOf(request: Request, configured: URL | undefined): URL {
  if (configured !== undefined) return configured;
  const url = new URL(request.url);
  return new URL(url.pathname, url.origin);
}

/**
 * The gate of one endpoint: `metadata` answers the metadata document's route, `authenticate`
 * turns a request into its principal or into the answer that refuses it.
 */
export interface BearerGate {
  metadata(request: Request): Response | undefined;
  authenticate(request: Request): Promise<AuthInfo | Response>;
}

/** The keys of `http.auth`. */
export const AUTH_OPTIONS: OptionKeys = optionKeys<HttpAuthOptions>()([
  'verifyToken',
  'requiredScopes',
  'authorizationServers',
  'scopesSupported',
  'resourceName',
  'resourceUrl',
]);

export function createBearerGate(
  options: HttpAuthOptions,
  report: (error: unknown) => void,
): BearerGate {
  if (!isRecord(options) || typeof options.verifyToken !== 'function') {
    throw new TypeError('ParleyServer: http.auth needs verifyToken(token, request).');
  }
  checkOptionKeys('ParleyServer', 'options.http.auth', options, AUTH_OPTIONS);
  const authorizationServers = checkUrls('authorizationServers', options.authorizationServers);
  const requiredScopes = checkStrings('requiredScopes', options.requiredScopes) ?? [];
  const scopesSupported = checkStrings('scopesSupported', options.scopesSupported);
  if (options.resourceUrl !== undefined && !URL.canParse(String(options.resourceUrl))) {
    throw new TypeError('ParleyServer: http.auth.resourceUrl must be an absolute URL.');
  }
  const configured =
    options.resourceUrl === undefined ? undefined : new URL(String(options.resourceUrl));
  const verify = options.verifyToken.bind(options);

  const metadataUrl = (request: Request): string | undefined => {
    if (authorizationServers === undefined) return undefined;
    const resource = resourceOf(request, configured);
    return new URL(protectedResourceMetadataPath(resource), resource.origin).href;
  };
  // The challenges are the SDK's, loaded with the first request that needs one.
  const refuse = async (
    code: 'invalid_token' | 'insufficient_scope',
    message: string,
    request: Request,
  ): Promise<Response> => {
    const sdk = await loadSdk();
    return challenge(new sdk.OAuthError(code as never, message), request);
  };
  const challenge = async (error: unknown, request: Request): Promise<Response> => {
    const sdk = await loadSdk();
    return sdk.bearerAuthChallengeResponse(error as never, {
      requiredScopes,
      ...(metadataUrl(request) !== undefined ? { resourceMetadataUrl: metadataUrl(request) } : {}),
    });
  };

  return {
    metadata(request) {
      if (authorizationServers === undefined) return undefined;
      const url = new URL(request.url);
      if (!url.pathname.startsWith(METADATA_PREFIX)) return undefined;
      const resource =
        configured ?? new URL(url.pathname.slice(METADATA_PREFIX.length) || '/', url.origin);
      if (url.pathname !== protectedResourceMetadataPath(resource)) return undefined;
      const cors = { 'access-control-allow-origin': '*' };
      if (request.method === 'OPTIONS') {
        return new Response(null, {
          status: 204,
          headers: { ...cors, 'access-control-allow-methods': 'GET, OPTIONS' },
        });
      }
      if (request.method !== 'GET') {
        return new Response(null, { status: 405, headers: { ...cors, allow: 'GET, OPTIONS' } });
      }
      return Response.json(
        {
          resource: resource.href,
          authorization_servers: authorizationServers,
          ...(scopesSupported !== undefined ? { scopes_supported: scopesSupported } : {}),
          bearer_methods_supported: ['header'],
          ...(options.resourceName !== undefined ? { resource_name: options.resourceName } : {}),
        },
        { headers: cors },
      );
    },

    async authenticate(request) {
      const header = request.headers.get('authorization') ?? '';
      const token = /^Bearer[ ]+([^\s]+)[ ]*$/i.exec(header)?.[1];
      if (token === undefined) {
        return refuse('invalid_token', 'A bearer token is required', request);
      }
      let principal: AuthInfo | undefined;
      try {
        principal = await verify(token, request);
      } catch (error) {
        if (error instanceof (await loadSdk()).OAuthError) return challenge(error, request);
        report(error);
        return refuse('invalid_token', 'The token could not be verified', request);
      }
      if (principal === undefined) {
        return refuse('invalid_token', 'The token is not valid here', request);
      }
      if (
        !isRecord(principal) ||
        typeof principal.clientId !== 'string' ||
        !Array.isArray(principal.scopes)
      ) {
        report(
          new TypeError(
            'http.auth.verifyToken must return { token, clientId, scopes } or undefined.',
          ),
        );
        return refuse('invalid_token', 'The token could not be verified', request);
      }
      if (principal.expiresAt !== undefined && principal.expiresAt * 1000 <= Date.now()) {
        return refuse('invalid_token', 'The token has expired', request);
      }
      const missing = requiredScopes.filter((scope) => !principal.scopes.includes(scope));
      if (missing.length > 0) {
        return refuse(
          'insufficient_scope',
          `The token lacks the scope ${missing.join(' ')}`,
          request,
        );
      }
      return principal;
    },
  };
}
