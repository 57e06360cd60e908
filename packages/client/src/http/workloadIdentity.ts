import { checkOptionKeys, optionKeys } from '@parley/core';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';

import { WorkloadIdentityError } from './authErrors.ts';
import { checkDpopOption, dpopSessionOf, type DpopOption } from './dpop.ts';

/** RFC 7523 §2.1: an assertion used as the authorization grant. */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** Options of {@link createWorkloadIdentityProvider}. */
export interface WorkloadIdentityOptions {
  /** This workload's `client_id` at the MCP server's authorization server. */
  clientId: string;
  /**
   * The workload identity token: a JWT the platform issued to this workload (Kubernetes,
   * GitHub Actions, a cloud's metadata server, SPIFFE), whose audience is the authorization
   * server. The token itself, or a function asked for it at each exchange, so a token the
   * platform rotates (a projected file, say: `() => readFile(path, 'utf8')`) is read fresh.
   */
  token: string | (() => string | Promise<string>);
  /** The scope to ask for. Default: what the server's metadata says, or none. */
  scope?: string;
  /** Shown in the authorization server's logs. Default `'Parley workload'`. */
  clientName?: string;
  /** Sender-constrained tokens (DPoP, RFC 9449). Default off. */
  dpop?: DpopOption;
}

const OPTION_KEYS = optionKeys<WorkloadIdentityOptions>()([
  'clientId',
  'token',
  'scope',
  'clientName',
  'dpop',
]);

/** A compact JWS: three base64url parts. What a workload identity token has to look like. */
const COMPACT_JWT = /^[\w-]+\.[\w-]+\.[\w-]*$/;

/** Why a JWT-bearer request was refused, by the form it was sent with (see `noteTokenAnswer`). */
const refusals = new WeakMap<
  URLSearchParams,
  { tokenEndpoint: string; error?: string; description?: string }
>();

/**
 * Called by the client's `fetch` with the answer to every token request: a JWT-bearer grant that
 * was refused is remembered with the authorization server's reason, so the provider can name it
 * when the SDK would send the same grant again. A nonce challenge is no refusal (it is answered).
 */
export async function noteTokenAnswer(
  body: URLSearchParams,
  url: string,
  response: Response,
): Promise<void> {
  if (body.get('grant_type') !== JWT_BEARER_GRANT) return;
  if (response.ok) {
    refusals.delete(body);
    return;
  }
  const answer = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { error?: unknown; error_description?: unknown } | undefined;
  if (answer?.error === 'use_dpop_nonce') return;
  refusals.set(body, {
    tokenEndpoint: url,
    ...(typeof answer?.error === 'string' ? { error: answer.error } : {}),
    ...(typeof answer?.error_description === 'string'
      ? { description: answer.error_description }
      : {}),
  });
}

async function readToken(source: WorkloadIdentityOptions['token']): Promise<string> {
  let token: unknown;
  try {
    token = typeof source === 'function' ? await source() : source;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new WorkloadIdentityError(
      `reading the token failed: ${why}`,
      { tokenEndpoint: undefined, error: undefined },
      error,
    );
  }
  const trimmed = typeof token === 'string' ? token.trim() : '';
  if (!COMPACT_JWT.test(trimmed)) {
    throw new WorkloadIdentityError(
      typeof token === 'string' && trimmed.length > 0
        ? 'the token is not a JWT (three base64url parts joined by dots).'
        : 'the token source gave no token (an empty or non-string value).',
      { tokenEndpoint: undefined, error: undefined },
    );
  }
  return trimmed;
}

/**
 * An `OAuthClientProvider` for a workload with no user: it exchanges the workload identity
 * token for an access token with the JWT-bearer grant (RFC 7523, MCP's workload identity
 * federation, SEP-1933) at the authorization server the MCP server names, with no browser, no
 * registration and no refresh token (the next exchange reads the token again). Give it to
 * `auth.oauth`.
 *
 * A refused grant (`invalid_grant`: the token expired or is for another audience;
 * `unauthorized_client`) fails with a {@link WorkloadIdentityError} carrying the server's
 * reason; it is not retried with the same token, and no other grant is tried.
 */
export function createWorkloadIdentityProvider(
  options: WorkloadIdentityOptions,
): OAuthClientProvider {
  const api = 'createWorkloadIdentityProvider';
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${api}: options must be an object.`);
  }
  checkOptionKeys(api, 'options', options, OPTION_KEYS);
  const { clientId, token, scope, clientName } = options;
  if (typeof clientId !== 'string' || clientId.length === 0) {
    throw new TypeError(`${api}: clientId must be a non-empty string.`);
  }
  if (typeof token === 'string') {
    if (!COMPACT_JWT.test(token.trim())) {
      throw new TypeError(`${api}: token must be a JWT (three base64url parts joined by dots).`);
    }
  } else if (typeof token !== 'function') {
    throw new TypeError(`${api}: token must be the JWT or a function returning it.`);
  }
  if (scope !== undefined && typeof scope !== 'string') {
    throw new TypeError(`${api}: scope must be a string of space-separated scopes.`);
  }
  const dpop = dpopSessionOf(api, checkDpopOption(api, options.dpop));
  const metadata: OAuthClientMetadata = {
    client_name: clientName ?? 'Parley workload',
    redirect_uris: [],
    grant_types: [JWT_BEARER_GRANT],
    token_endpoint_auth_method: 'none',
    ...(scope !== undefined ? { scope } : {}),
  };
  let tokens: StoredOAuthTokens | undefined;
  let lastRequest: URLSearchParams | undefined;
  // Set when the SDK discards credentials after our grant was refused, just before it tries again.
  let retryAfterRefusal = false;

  return {
    get redirectUrl() {
      return undefined;
    },
    clientMetadata: metadata,
    clientInformation: () => ({ client_id: clientId }),
    tokens: () => tokens,
    saveTokens: (saved) => {
      tokens = saved;
    },
    redirectToAuthorization: () => {
      throw new Error(`${api}: a workload signs in without a browser.`);
    },
    saveCodeVerifier: () => {},
    codeVerifier: () => {
      throw new Error(`${api}: the JWT-bearer grant uses no PKCE verifier.`);
    },
    prepareTokenRequest: async (requested) => {
      const refusal = lastRequest === undefined ? undefined : refusals.get(lastRequest);
      if (retryAfterRefusal && refusal !== undefined) {
        retryAfterRefusal = false;
        lastRequest = undefined;
        const reason = [refusal.error, refusal.description].filter(Boolean).join(': ');
        throw new WorkloadIdentityError(
          `the authorization server at ${refusal.tokenEndpoint} refused the JWT-bearer grant (${reason || 'no reason given'}); it is not sent again.`,
          { tokenEndpoint: refusal.tokenEndpoint, error: refusal.error },
        );
      }
      retryAfterRefusal = false;
      const params = new URLSearchParams({
        grant_type: JWT_BEARER_GRANT,
        assertion: await readToken(token),
      });
      if (requested) params.set('scope', requested);
      lastRequest = params;
      return params;
    },
    invalidateCredentials: (what) => {
      if (what === 'all' || what === 'tokens' || what === 'client') {
        tokens = undefined;
        if (lastRequest !== undefined && refusals.has(lastRequest)) retryAfterRefusal = true;
      }
    },
    ...(dpop !== undefined ? { dpop } : {}),
  };
}
