import type { Implementation } from '@parley/core';
import type { ServerCapabilities } from '@modelcontextprotocol/server';

import { EXTENSION_ID } from '@modelcontextprotocol/ext-apps/server';

import type { AskRouting } from '../ask/askRoutes.ts';
import type { Registry } from '../handler/definitions.ts';
import type { TaskRuntime } from '../tasks/taskLaunch.ts';
import type { ChangeNotifier } from './changes.ts';

/**
 * Everything the eras and transports need from the `ParleyServer` that owns them: what a round
 * and a task need, plus who the server is and where changes are announced. Built once per
 * server (`facade/runtimeOf.ts`); its registries are the server's live maps.
 */
export interface ServerRuntime extends TaskRuntime {
  info: Implementation;
  instructions: string | undefined;
  /** Where list changes and resource updates are announced. */
  changes: ChangeNotifier;
  /** How often a handshake-era call waiting on a person gets a progress notice (0: never). */
  waitProgressMs: number;
}

/** True when the server has at least one resource or resource template. */
export function hasResources(registry: Registry): boolean {
  return registry.resources.size > 0 || registry.templates.length > 0;
}

/**
 * What the server declares, from what is registered; with the App route allowed, MCP Apps'
 * extension with app-rendered elicitation (SEP-3118), which a client needs to see before it
 * hands a form to the App.
 */
export function capabilitiesOf(registry: Registry & { asking: AskRouting }): ServerCapabilities {
  return {
    ...(registry.asking.routes.includes('app')
      ? { extensions: { [EXTENSION_ID]: { elicitation: {} } } }
      : {}),
    logging: {},
    ...(registry.tools.size > 0 ? { tools: { listChanged: true } } : {}),
    ...(registry.prompts.size > 0 ? { prompts: { listChanged: true } } : {}),
    ...(hasResources(registry) ? { resources: { subscribe: true, listChanged: true } } : {}),
    ...(registry.prompts.size > 0 || registry.templates.length > 0 ? { completions: {} } : {}),
  };
}

/** `capabilities` with `more`'s extensions added to its own (neither replaces the other's). */
export function withExtensions(
  capabilities: ServerCapabilities,
  more: { extensions?: Record<string, object> },
): ServerCapabilities {
  if (more.extensions === undefined) return capabilities;
  const extensions = { ...capabilities.extensions, ...more.extensions };
  return { ...capabilities, extensions: extensions as ServerCapabilities['extensions'] };
}
