import { ParleyError } from '@parley/core';

/** What a {@link DpopNonceError} carries. */
export interface DpopNonceErrorData {
  /** The URL that kept asking (the token endpoint, or the MCP endpoint). */
  url: string;
  /** Which server it is. */
  server: 'authorization server' | 'MCP server';
}

/**
 * A server asked for a DPoP nonce (`use_dpop_nonce`) and then refused the proof made with the
 * nonce it gave, or asked without giving one. A nonce challenge is answered once (RFC 9449
 * §8, §9); a second in a row for the same request means the server will not accept any proof
 * this client makes, so the request fails with this instead of looping.
 */
export class DpopNonceError extends ParleyError<DpopNonceErrorData> {
  static override readonly brand: string = '@parley/client:DpopNonceError';

  constructor(data: DpopNonceErrorData, detail: string) {
    super('internal', `DPoP: the ${data.server} at ${data.url} ${detail}`, { data });
  }
}

/** What a {@link WorkloadIdentityError} carries. */
export interface WorkloadIdentityErrorData {
  /** The token endpoint that refused the grant, when it got that far. */
  tokenEndpoint: string | undefined;
  /** The OAuth error code the authorization server answered (`invalid_grant`, …). */
  error: string | undefined;
}

/**
 * The workload identity token could not be read, or the authorization server refused the
 * JWT-bearer grant made with it. A refused grant is not sent again with the same token (nor is
 * another grant tried): an expired token, one for another audience, or a client that may not use
 * the grant is refused every time. The next request tries again with the token the source gives
 * then (a platform that rotates it will have a new one).
 */
export class WorkloadIdentityError extends ParleyError<WorkloadIdentityErrorData> {
  static override readonly brand: string = '@parley/client:WorkloadIdentityError';

  constructor(message: string, data: WorkloadIdentityErrorData, cause?: unknown) {
    super('internal', `Workload identity: ${message}`, { data, cause });
  }
}
