import {
  UrlElicitationRequiredError,
  inputRequired,
  type Era,
  type InputRequiredResult,
} from '@parley/core';

import { elicitUrlRequest } from '../ask/builders.ts';

/**
 * A thrown {@link UrlElicitationRequiredError} on the modern era, where `-32042` no longer
 * exists: the same pages asked the 2026-07-28 way, as an `input_required` result with one URL
 * elicitation per page, keyed by its `elicitationId`. The handler runs again once the client
 * answers, so it checks whether the out-of-band step is done and throws again if not.
 * `undefined` for anything else, or on the handshake era (where it is the `-32042` error).
 */
export function urlElicitationAsk(error: unknown, era: Era): InputRequiredResult | undefined {
  if (era !== 'modern' || !(error instanceof UrlElicitationRequiredError)) return undefined;
  const pages = error.data?.elicitations ?? [];
  return inputRequired({
    inputRequests: Object.fromEntries(
      pages.map((page) => [page.elicitationId, elicitUrlRequest(page.message, page.url)]),
    ),
  });
}
