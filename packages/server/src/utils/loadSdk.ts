/*
 * The MCP SDK, loaded when something first needs it: a handshake-era session, a
 * `subscriptions/listen` stream, bearer-token challenges, stdio, a JSON Schema validator, a
 * resource template. A server that only ever speaks the modern protocol never loads it, and
 * starts in a fraction of the time.
 */

import type * as SdkModule from './sdkModule.ts';

/** The SDK's module, as `loadSdk()` resolves it. */
export type Sdk = typeof SdkModule;

let sdk: Promise<Sdk> | undefined;

export function loadSdk(): Promise<Sdk> {
  sdk ??= import('./sdkModule.ts');
  return sdk;
}
