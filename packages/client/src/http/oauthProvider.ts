import { checkOptionKeys, optionKeys } from '@parley/core';
import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';

import { checkDpopOption, dpopSessionOf, type DpopOption } from './dpop.ts';

/** Options of {@link createOAuthProvider}. */
export interface OAuthProviderOptions {
  /** Where the authorization server sends the user back (a loopback URL for a native app). */
  redirectUrl: string | URL;
  /** Shown to the user by the authorization server. Default `'Parley client'`. */
  clientName?: string;
  /** More registration metadata (`scope`, `logo_uri`, `application_type`, …). */
  clientMetadata?: Partial<OAuthClientMetadata>;
  /**
   * An HTTPS URL of this client's metadata document (Client ID Metadata Documents): used as
   * the `client_id` where the authorization server supports it, instead of registering.
   */
  clientMetadataUrl?: string;
  /** A client registered beforehand (`client_id`, `client_secret`): no registration happens. */
  clientInformation?: StoredOAuthClientInformation;
  /**
   * Sender-constrained tokens (DPoP, RFC 9449 / SEP-1932): `true` makes an ES256 key pair for
   * this provider; `{ keyPair }` uses WebCrypto keys of your own. Every token request and every
   * request to the MCP server then carries a proof, a DPoP-bound token is sent with the `DPoP`
   * scheme, and each server's nonces are answered. Default off, as in the SDK.
   */
  dpop?: DpopOption;
}

/**
 * An in-memory `OAuthClientProvider` for the SDK's flows: it keeps the client registration
 * (per authorization server, so a `client_id` issued by one is never sent to another), the
 * tokens, the PKCE verifier, the discovery state and a fresh `state` per sign-in. Nothing
 * outlives the process: persist tokens with a provider of your own in the same shape.
 *
 * Its `redirectToAuthorization` does nothing: give the client `auth.authorizationResponse`,
 * which sends the user to the URL and resolves with where they came back.
 */
const OPTION_KEYS = optionKeys<OAuthProviderOptions>()([
  'redirectUrl',
  'clientName',
  'clientMetadata',
  'clientMetadataUrl',
  'clientInformation',
  'dpop',
]);

export function createOAuthProvider(options: OAuthProviderOptions): OAuthClientProvider {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('createOAuthProvider: options must be an object.');
  }
  checkOptionKeys('createOAuthProvider', 'options', options, OPTION_KEYS);
  const redirectUrl = String(options.redirectUrl);
  if (!URL.canParse(redirectUrl)) {
    throw new TypeError(
      `createOAuthProvider: redirectUrl must be an absolute URL, got ${JSON.stringify(redirectUrl)}.`,
    );
  }
  const { clientMetadataUrl, clientInformation } = options;
  if (clientMetadataUrl !== undefined) {
    const url = URL.canParse(clientMetadataUrl) ? new URL(clientMetadataUrl) : undefined;
    if (url?.protocol !== 'https:' || url.pathname === '/') {
      throw new TypeError(
        'createOAuthProvider: clientMetadataUrl must be an https URL with a path (Client ID Metadata Documents).',
      );
    }
  }
  if (clientInformation !== undefined && typeof clientInformation?.client_id !== 'string') {
    throw new TypeError('createOAuthProvider: clientInformation needs a client_id.');
  }
  const dpop = dpopSessionOf(
    'createOAuthProvider',
    checkDpopOption('createOAuthProvider', options.dpop),
  );
  const metadata: OAuthClientMetadata = {
    client_name: options.clientName ?? 'Parley client',
    redirect_uris: [redirectUrl],
    ...options.clientMetadata,
  };
  const registered = new Map<string, StoredOAuthClientInformation>();
  let tokens: StoredOAuthTokens | undefined;
  let verifier: string | undefined;
  let discovery: OAuthDiscoveryState | undefined;

  return {
    redirectUrl,
    clientMetadata: metadata,
    ...(clientMetadataUrl !== undefined ? { clientMetadataUrl } : {}),
    state: () => crypto.randomUUID(),
    clientInformation: (ctx?: OAuthClientInformationContext) =>
      clientInformation ?? (ctx === undefined ? undefined : registered.get(ctx.issuer)),
    saveClientInformation: (information, ctx) => {
      if (ctx !== undefined) registered.set(ctx.issuer, information);
    },
    tokens: () => tokens,
    saveTokens: (saved) => {
      tokens = saved;
    },
    redirectToAuthorization: () => {},
    saveCodeVerifier: (saved) => {
      verifier = saved;
    },
    codeVerifier: () => {
      if (verifier === undefined) throw new Error('No PKCE code verifier: no sign-in was started.');
      return verifier;
    },
    saveDiscoveryState: (state) => {
      discovery = state;
    },
    discoveryState: () => discovery,
    invalidateCredentials: (scope) => {
      if (scope === 'all' || scope === 'tokens') tokens = undefined;
      if (scope === 'all' || scope === 'client') registered.clear();
      if (scope === 'all' || scope === 'verifier') verifier = undefined;
      if (scope === 'all' || scope === 'discovery') discovery = undefined;
    },
    ...(dpop !== undefined ? { dpop } : {}),
  };
}
