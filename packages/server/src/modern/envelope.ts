import {
  MODERN_PROTOCOL_VERSIONS,
  isRecord,
  type ClientCapabilities,
  type Implementation,
} from '@parley/core';

import { LOG_LEVELS, type LogLevel } from '../handler/contextTypes.ts';

/**
 * The modern era's per-request `_meta` envelope (SEP-2575): which requests claim it, and
 * whether a claim is well formed. Cheap, hand-written checks: this runs on every request.
 */

export const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
export const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
export const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';
export const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

/** The `_meta` object of a message's params, if it has one. */
export function metaOf(message: unknown): Record<string, unknown> | undefined {
  if (!isRecord(message) || !isRecord(message.params)) return undefined;
  const meta = message.params._meta;
  return isRecord(meta) ? meta : undefined;
}

/** True when a message claims the per-request envelope: its `_meta` names a protocol version. */
export function claimsEnvelope(message: unknown): boolean {
  const meta = metaOf(message);
  return meta !== undefined && PROTOCOL_VERSION_KEY in meta;
}

/** The facts a valid envelope gives. */
export interface Envelope {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  logLevel: LogLevel | undefined;
  progressToken: string | number | undefined;
}

/** A problem with an envelope: the key at fault and what is wrong. */
export interface EnvelopeProblem {
  key: string;
  problem: string;
}

/** Read and check the envelope of a message that claims one. */
export function readEnvelope(meta: Record<string, unknown>): Envelope | EnvelopeProblem {
  const version = meta[PROTOCOL_VERSION_KEY];
  if (typeof version !== 'string' || version.length === 0) {
    return { key: PROTOCOL_VERSION_KEY, problem: 'must be a protocol version string' };
  }
  const capabilities = meta[CLIENT_CAPABILITIES_KEY];
  if (capabilities === undefined) return { key: CLIENT_CAPABILITIES_KEY, problem: 'missing' };
  if (!isRecord(capabilities))
    return { key: CLIENT_CAPABILITIES_KEY, problem: 'must be an object' };
  for (const name in capabilities) {
    if (Object.hasOwn(capabilities, name) && !isRecord(capabilities[name])) {
      return { key: `${CLIENT_CAPABILITIES_KEY}.${name}`, problem: 'must be an object' };
    }
  }
  const info = meta[CLIENT_INFO_KEY];
  if (
    info !== undefined &&
    (!isRecord(info) || typeof info.name !== 'string' || typeof info.version !== 'string')
  ) {
    return { key: CLIENT_INFO_KEY, problem: 'must be { name, version } (strings)' };
  }
  const level = meta[LOG_LEVEL_KEY];
  if (level !== undefined && !LOG_LEVELS.includes(level as LogLevel)) {
    return { key: LOG_LEVEL_KEY, problem: `must be one of ${LOG_LEVELS.join(', ')}` };
  }
  const token = meta.progressToken;
  if (token !== undefined && typeof token !== 'string' && typeof token !== 'number') {
    return { key: 'progressToken', problem: 'must be a string or a number' };
  }
  return {
    protocolVersion: version,
    clientCapabilities: capabilities as ClientCapabilities,
    clientInfo: info as Implementation | undefined,
    logLevel: level as LogLevel | undefined,
    progressToken: token as string | number | undefined,
  };
}

/** True when this server speaks `version` on the modern path. */
export function isServedModernVersion(version: string): boolean {
  return MODERN_PROTOCOL_VERSIONS.includes(version);
}
