import {
  HANDSHAKE_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  UnsupportedProtocolVersionError,
} from '@parley/core';

import { modernUnavailable } from './errors.ts';
import type { ClientMode } from './types.ts';

/** What to do after a modern request was answered `-32022`. */
export type VersionRetry = 'retry' | 'retry-on-handshake';

/**
 * The spec's advice for `-32022`: pick a version both sides speak from `data.supported` and try
 * again. The SDK speaks one modern version, so a list that names it means "try again as is";
 * a list of handshake versions only means a handshake session, which mode `'auto'` may open and
 * mode `'modern'` may not.
 *
 * @throws {UnsupportedProtocolVersionError} when there is nothing to retry with.
 */
export function retryAfterUnsupportedVersion(
  mode: ClientMode,
  data: { supported: string[]; requested: string },
  target: string,
  cause: unknown,
): VersionRetry {
  if (data.supported.some((v) => MODERN_PROTOCOL_VERSIONS.includes(v))) return 'retry';
  const handshake = data.supported.some((v) => HANDSHAKE_PROTOCOL_VERSIONS.includes(v));
  if (handshake && mode === 'auto') return 'retry-on-handshake';
  if (handshake && mode === 'modern') throw modernUnavailable(target, data.supported, cause);
  throw new UnsupportedProtocolVersionError(data, { cause });
}
