import type { ElicitationSchema, Implementation } from '@parley/core';
import type { ServerCapabilities } from '@modelcontextprotocol/server';
import type { Middleware, MiddlewareFunction } from '@parley/middleware';
import type { RequestStateSealer } from '@parley/state-sealing';

import type {
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from './definitions.ts';
import type { ChangeNotifier } from './notifications.ts';
import type { SingleUsePolicy } from './round/singleUse.ts';
import type { WarningSource } from './schemaWarnings.ts';
import type { TaskEngine } from './tasks/taskEngine.ts';

/** Everything a serving unit needs from the `ParleyServer` that owns it. */
export interface ServerRuntime {
  info: Implementation;
  instructions: string | undefined;
  tools: ReadonlyMap<string, ToolDefinition>;
  prompts: ReadonlyMap<string, PromptDefinition>;
  resources: ReadonlyMap<string, ResourceDefinition>;
  templates: readonly ResourceTemplateDefinition[];
  sealer: RequestStateSealer;
  elicitationTimeoutMs: number;
  /** Server-side reports: rejected state (with its reason), unexpected failures. */
  report(error: unknown, where: { method: string; target: string }): void;
  /** Reports compatibility warnings about a schema, once per handler and schema. */
  lintSchema(source: WarningSource, schema: ElicitationSchema): void;
  /** Reports a warning (`onWarning`): an answer that was ignored, say. */
  warn(message: string, source: WarningSource): void;
  /** How many times a bad answer is asked again before the handler gets the error. */
  maxReasks: number;
  /** Single use of `requestState`, when the server enforces it. */
  singleUse: SingleUsePolicy | undefined;
  /** Bounds on the arguments and answers a request may carry. */
  limits: { maxDepth: number; maxNodes: number };
  /** The clock flows are timed with (ms since the epoch). */
  now: () => number;
  /** Where list changes and resource updates are announced. */
  changes: ChangeNotifier;
  /** The middleware chain, in the order it was installed. */
  middleware: readonly (Middleware | MiddlewareFunction)[];
  /** Where tools that run as tasks run, and their state is kept. */
  tasks: TaskEngine;
}

/** True when the server has at least one resource or resource template. */
export function hasResources(runtime: ServerRuntime): boolean {
  return runtime.resources.size > 0 || runtime.templates.length > 0;
}

/** What the server declares, from what is registered. */
export function capabilitiesOf(runtime: ServerRuntime): ServerCapabilities {
  return {
    logging: {},
    ...(runtime.tools.size > 0 ? { tools: { listChanged: true } } : {}),
    ...(runtime.prompts.size > 0 ? { prompts: { listChanged: true } } : {}),
    ...(hasResources(runtime) ? { resources: { subscribe: true, listChanged: true } } : {}),
    ...(runtime.prompts.size > 0 || runtime.templates.length > 0 ? { completions: {} } : {}),
  };
}
