/*
 * The MCP SDK, loaded when something first needs it: a handshake-era session, a
 * `subscriptions/listen` stream, bearer-token challenges, stdio. A server that only ever speaks
 * the modern protocol never loads it, and starts in a fraction of the time.
 */

import type * as SdkModule from './sdkModule.ts';

import type * as SessionServerModule from './sessionServer.ts';

type Sdk = typeof SdkModule;
type SessionModule = typeof SessionServerModule;

let sdk: Promise<Sdk> | undefined;
let sessions: Promise<SessionModule> | undefined;

export function loadSdk(): Promise<Sdk> {
  sdk ??= import('./sdkModule.ts');
  return sdk;
}

/** The handshake-era session server (and with it the SDK). */
export function loadSessionServer(): Promise<SessionModule> {
  sessions ??= import('./sessionServer.ts');
  return sessions;
}
