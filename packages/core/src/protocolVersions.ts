/**
 * Protocol versions and the two eras they fall into.
 *
 * The handshake era negotiates a version once, in `initialize`; the modern era (2026-07-28 and
 * later) carries it on every request. The MCP SDK has no public constant for the modern version
 * yet, so this module is where Parley keeps both lists.
 */

/** The two protocol eras: `initialize`-handshake sessions, or per-request metadata. */
export type Era = 'handshake' | 'modern';

/** The first (and so far only) modern protocol version: no handshake, no server-initiated requests. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** Every modern protocol version Parley speaks, newest first. */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([MODERN_PROTOCOL_VERSION]);

/** The newest handshake-era protocol version. */
export const LATEST_HANDSHAKE_PROTOCOL_VERSION = '2025-11-25';

/** Every handshake-era protocol version the MCP SDK v2 negotiates, newest first. */
export const HANDSHAKE_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
  LATEST_HANDSHAKE_PROTOCOL_VERSION,
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
]);

/** Every protocol version Parley speaks, modern first, newest first within an era. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
  ...MODERN_PROTOCOL_VERSIONS,
  ...HANDSHAKE_PROTOCOL_VERSIONS,
]);

const VERSION_FORMAT = /^\d{4}-\d{2}-\d{2}$/;

/** True when `version` is a well-formed MCP protocol version string (`YYYY-MM-DD`). */
export function isProtocolVersion(version: unknown): version is string {
  return typeof version === 'string' && VERSION_FORMAT.test(version);
}

/** True when Parley can speak `version`, in either era. */
export function isSupportedVersion(version: string): boolean {
  return SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

/**
 * True when `version` belongs to the modern era: 2026-07-28 or any later revision, all of which
 * carry their metadata per request. Versions compare as dates, so a revision newer than this
 * package is still recognised as modern.
 */
export function isModernVersion(version: string): boolean {
  return isProtocolVersion(version) && version >= MODERN_PROTOCOL_VERSION;
}

/**
 * The era a protocol version belongs to.
 *
 * @throws {TypeError} when `version` is not a `YYYY-MM-DD` protocol version string.
 */
export function eraOf(version: string): Era {
  if (!isProtocolVersion(version)) {
    throw new TypeError(
      `eraOf: ${JSON.stringify(version)} is not an MCP protocol version (expected YYYY-MM-DD).`,
    );
  }
  return version >= MODERN_PROTOCOL_VERSION ? 'modern' : 'handshake';
}
