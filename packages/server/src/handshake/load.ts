/*
 * The handshake-era session server (and with it the SDK), loaded when the first handshake-era
 * client arrives: a server that only ever speaks the modern protocol never reads it.
 */

import type * as SessionServerModule from './sessionServer.ts';

type SessionModule = typeof SessionServerModule;

let sessions: Promise<SessionModule> | undefined;

export function loadSessionServer(): Promise<SessionModule> {
  sessions ??= import('./sessionServer.ts');
  return sessions;
}
