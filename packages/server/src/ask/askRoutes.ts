import type { ClientCapabilities, Implementation } from '@parley/core';
import {
  EXTENSION_ID,
  RESOURCE_MIME_TYPE,
  getUiCapability,
} from '@modelcontextprotocol/ext-apps/server';

import { profileOf, type FieldKind, type HostProfile } from './hostProfiles.ts';

/**
 * Which way an ask reaches a person. A form ask goes by the first route in the server's
 * `askRoutes` this client can take:
 *
 * - `'elicitation'`: the client's own form, when it declares elicitation and its host profile
 *   does not say it never draws it. Where the client also declares app-rendered elicitation
 *   (SEP-3118) and `'app'` is allowed, the ask names the App as the form to draw it with;
 * - `'app'`: an MCP App (the UI extension), for a tool call from a client that declares
 *   `text/html;profile=mcp-app`: the call returns the App, the person answers in it, and the
 *   answer comes back through the app-only answer tool, checked like an elicitation answer.
 *
 * A client no route reaches gets the tool's `askFallback`, as before.
 */

/** The App's UI resource: the form a person answers in, on the App route and for SEP-3118. */
export const APP_URI = 'ui://parley/ask';

/** A way an ask reaches a person. */
export type AskRoute = 'elicitation' | 'app';

/**
 * The routes a server allows by default: the client's own forms. The App route is the server's
 * choice (`askRoutes: ['elicitation', 'app']`): it adds a resource and, for clients that draw
 * Apps, a UI to every tool.
 */
export const DEFAULT_ASK_ROUTES: readonly AskRoute[] = Object.freeze(['elicitation']);

/** How a server routes asks: its routes in order and its host profiles. */
export interface AskRouting {
  routes: readonly AskRoute[];
  profiles: readonly HostProfile[];
}

/** What can answer one round's asks, and how. */
export interface AskReach {
  /**
   * What may be asked this round: the client's capabilities, as its host profile corrects them,
   * or, on the App route, what the App answers (forms).
   */
  capabilities: ClientCapabilities;
  /** The round's form asks go to the App. */
  app: boolean;
  /** Form asks name the App as their form (SEP-3118), the schema kept for the client's own. */
  appElicitation: boolean;
  /** Form fields this host cannot draw. */
  cannotRender: readonly FieldKind[];
}

/** What the App answers: forms. */
export const APP_CAPABILITIES: ClientCapabilities = Object.freeze({
  elicitation: Object.freeze({ form: Object.freeze({}) }),
}) as ClientCapabilities;

const NO_KINDS: readonly FieldKind[] = Object.freeze([]);

const ROUTES: ReadonlySet<unknown> = new Set(['elicitation', 'app']);

/** The server's `askRoutes`, checked: a non-empty list of known routes, each once. */
export function checkAskRoutes(routes: unknown): readonly AskRoute[] {
  if (routes === undefined) return DEFAULT_ASK_ROUTES;
  if (
    !Array.isArray(routes) ||
    routes.length === 0 ||
    !routes.every((route) => ROUTES.has(route)) ||
    new Set(routes).size !== routes.length
  ) {
    throw new TypeError(
      `ParleyServer: askRoutes must list 'elicitation' and/or 'app', each once, in the order to try them (got ${JSON.stringify(routes)}).`,
    );
  }
  return Object.freeze([...routes] as AskRoute[]);
}

/** True when the client declares the MCP Apps extension with HTML apps. */
export function declaresApps(capabilities: ClientCapabilities): boolean {
  const ui = getUiCapability(capabilities as never) as { mimeTypes?: unknown } | undefined;
  return Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(RESOURCE_MIME_TYPE);
}

/** True when the client declares app-rendered elicitation (SEP-3118): `…/ui.elicitation`. */
export function declaresAppElicitation(capabilities: ClientCapabilities): boolean {
  const ui = capabilities.extensions?.[EXTENSION_ID] as { elicitation?: unknown } | undefined;
  return (
    declaresApps(capabilities) && typeof ui?.elicitation === 'object' && ui.elicitation !== null
  );
}

/** The client's capabilities as its host profile corrects them. */
function profiled(
  capabilities: ClientCapabilities,
  profile: HostProfile | undefined,
): ClientCapabilities {
  const elicitation = capabilities.elicitation;
  if (profile === undefined || elicitation === undefined) return capabilities;
  if (profile.drawsElicitation === false) {
    const { elicitation: _never, ...rest } = capabilities;
    return rest;
  }
  if (profile.urlMode === false && elicitation.url !== undefined) {
    const { url: _never, ...modes } = elicitation;
    // A client that declared only URL mode is left with none.
    if (modes.form === undefined) {
      const { elicitation: _none, ...rest } = capabilities;
      return rest;
    }
    return { ...capabilities, elicitation: modes };
  }
  return capabilities;
}

function drawsForms(capabilities: ClientCapabilities): boolean {
  const elicitation = capabilities.elicitation;
  if (elicitation === undefined) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/** How one round's asks reach this client. */
export function reachOf(
  routing: AskRouting,
  declared: ClientCapabilities,
  client: Implementation | undefined,
  method: string,
): AskReach {
  const profile = profileOf(routing.profiles, client);
  const capabilities = profiled(declared, profile);
  const cannotRender = profile?.cannotRender ?? NO_KINDS;
  for (const route of routing.routes) {
    if (route === 'elicitation' && drawsForms(capabilities)) {
      const appElicitation = routing.routes.includes('app') && declaresAppElicitation(declared);
      return { capabilities, app: false, appElicitation, cannotRender };
    }
    if (route === 'app' && method === 'tools/call' && declaresApps(declared)) {
      return {
        capabilities: APP_CAPABILITIES,
        app: true,
        appElicitation: false,
        cannotRender: NO_KINDS,
      };
    }
  }
  return { capabilities, app: false, appElicitation: false, cannotRender };
}
