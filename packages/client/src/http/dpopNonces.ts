import { isDpopNonceChallenge, type FetchLike } from '@modelcontextprotocol/client';

import { DpopNonceError, type DpopNonceErrorData } from './authErrors.ts';

/**
 * The SDK signs the proofs, remembers each server's latest `DPoP-Nonce` and answers a nonce
 * challenge by sending the request once more with the nonce (RFC 9449 §8 at the token endpoint,
 * §9 at the MCP endpoint). What it does after a second challenge is less helpful: at the MCP
 * endpoint the `401` goes on to the sign-in flow, as if the token were bad, and the user could be
 * sent to sign in again for nothing. This wrapper sits under the SDK's (it sees every attempt)
 * and turns the second challenge in a row for the same request, or a challenge that gives no
 * nonce to answer with, into a {@link DpopNonceError} that names the server.
 */

/** How long a challenge waits for its answer before it is forgotten. */
const ANSWER_WINDOW_MS = 60_000;

/** A `use_dpop_nonce` challenge: the MCP server's `401` (RFC 9449 §9) or the token endpoint's `400` (§8). */
async function isNonceChallenge(response: Response): Promise<boolean> {
  if (isDpopNonceChallenge(response)) return true;
  if (response.status !== 400) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { error?: unknown } | undefined;
  return body?.error === 'use_dpop_nonce';
}

/** The same request sent again: method, URL without query, and body (a string or form). */
function requestKey(url: URL, init: RequestInit | undefined): string {
  const body = init?.body;
  const text = typeof body === 'string' || body instanceof URLSearchParams ? String(body) : '';
  return `${(init?.method ?? 'GET').toUpperCase()} ${url.origin}${url.pathname}\n${text}`;
}

export function answerNonceChallengesOnce(
  base: FetchLike,
  serverAt: (url: URL) => DpopNonceErrorData['server'],
): FetchLike {
  const challenged = new Map<string, number>();
  return async (input, init) => {
    if (!new Headers(init?.headers).has('dpop')) return base(input, init);
    const url = new URL(String(input));
    const key = requestKey(url, init);
    const response = await base(input, init);
    if (!(await isNonceChallenge(response))) {
      challenged.delete(key);
      return response;
    }
    const data: DpopNonceErrorData = { url: `${url.origin}${url.pathname}`, server: serverAt(url) };
    if (!response.headers.has('dpop-nonce')) {
      throw new DpopNonceError(
        data,
        'asked for a DPoP nonce (use_dpop_nonce) without giving one in a DPoP-Nonce header.',
      );
    }
    const now = Date.now();
    for (const [pending, at] of challenged) {
      if (at + ANSWER_WINDOW_MS <= now) challenged.delete(pending);
    }
    if (challenged.delete(key)) {
      throw new DpopNonceError(
        data,
        'refused the DPoP proof made with the nonce it had just given and asked for another (use_dpop_nonce twice in a row); a nonce challenge is answered once.',
      );
    }
    challenged.set(key, now);
    return response;
  };
}
