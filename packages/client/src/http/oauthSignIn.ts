import {
  UnauthorizedError,
  type OAuthClientProvider,
  type StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';

import type { AuthorizationResponse } from '../types.ts';
import type { ResolvedAuth } from './httpOptions.ts';

/**
 * Finishing an OAuth sign-in that needs the user, so the request that needed it simply goes on.
 *
 * The SDK runs the flow (discovery, registration, PKCE, token exchange, refresh, step-up) and,
 * when the user must sign in, calls the provider's `redirectToAuthorization` and fails the
 * request with `UnauthorizedError`. Parley watches that call, asks the host's
 * `authorizationResponse` for where the user came back, checks `state`, hands the response to
 * the transport's `finishAuth` (which checks `iss` and exchanges the code) and sends the same
 * message again. A message gets at most {@link MAX_SIGN_INS} sign-ins, so a server that keeps
 * refusing every token cannot loop the user through the authorization server forever.
 */

export const MAX_SIGN_INS = 2;

function responseParams(response: AuthorizationResponse): URLSearchParams {
  if (response instanceof URLSearchParams) return response;
  if (response instanceof URL) return response.searchParams;
  if (typeof response === 'string') {
    return URL.canParse(response) ? new URL(response).searchParams : new URLSearchParams(response);
  }
  throw new TypeError(
    'auth.authorizationResponse must resolve with the redirect URL, a URL, URLSearchParams or a query string.',
  );
}

export class OAuthSignIn {
  /** The host's provider, with `redirectToAuthorization` observed; given to the transport. */
  readonly provider: OAuthClientProvider;
  readonly #respond: ((url: URL) => Promise<AuthorizationResponse>) | undefined;
  /**
   * Redirects seen, in order; a failed send looks for one made after it started. Sends that
   * failed on the same redirect share its one sign-in.
   */
  #redirects: { seq: number; url: URL; signIn?: Promise<void> }[] = [];
  #seq = 0;
  /** Sign-ins run one at a time: each starts a PKCE verifier the next would replace. */
  #signingIn: Promise<void> = Promise.resolve();

  constructor(auth: Extract<ResolvedAuth, { kind: 'oauth' }>) {
    this.#respond = auth.authorizationResponse;
    const onRedirect = (url: URL): void => {
      this.#redirects = [...this.#redirects.slice(-7), { seq: ++this.#seq, url }];
    };
    // A Proxy rather than a copy: getters (redirectUrl, clientMetadata), optional members the
    // SDK probes for (dpop, state, discoveryState, …) and private fields of a class provider all
    // keep working, with `this` the host's own object.
    this.provider = new Proxy(auth.provider, {
      get(target, property) {
        if (property === 'redirectToAuthorization') {
          return async (url: URL) => {
            onRedirect(url);
            await target.redirectToAuthorization(url);
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  /** Make `transport` finish a sign-in the user has to make and resend the message. */
  completeOn(transport: StreamableHTTPClientTransport): void {
    const send = transport.send.bind(transport);
    transport.send = async (message, options) => {
      for (let signIns = 0; ; signIns += 1) {
        const started = this.#seq;
        try {
          return await send(message, options);
        } catch (error) {
          const redirect = this.#redirects.findLast((entry) => entry.seq > started);
          if (!(error instanceof UnauthorizedError) || redirect === undefined) throw error;
          if (signIns >= MAX_SIGN_INS) {
            throw new UnauthorizedError(
              `The server still refused the request after ${MAX_SIGN_INS} sign-ins; not sending the user to the authorization server again.`,
            );
          }
          redirect.signIn ??= this.#signIn(transport, redirect.url);
          await redirect.signIn;
        }
      }
    };
  }

  #signIn(transport: StreamableHTTPClientTransport, authorizationUrl: URL): Promise<void> {
    const run = async (): Promise<void> => {
      if (this.#respond === undefined) {
        throw new UnauthorizedError(
          `Signing in needs the user at ${authorizationUrl.origin}, but auth has no authorizationResponse to wait for their return.`,
        );
      }
      const params = responseParams(await this.#respond(authorizationUrl));
      const expected = authorizationUrl.searchParams.get('state');
      if (expected !== null && params.get('state') !== expected) {
        throw new UnauthorizedError(
          'The authorization response does not carry the state this sign-in sent (a forged or stale redirect); it was not used.',
        );
      }
      await transport.finishAuth(params);
    };
    const next = this.#signingIn.then(run, run);
    this.#signingIn = next.catch(() => {});
    return next;
  }
}
