import {
  InputRequiredToolResult,
  ToolResult,
  isInputRequiredResult,
  type InputRequiredResult,
  type ReadResourceResult,
} from '@parley/core';
import type { ClientCapabilities, HandlerInfo } from '@parley/core';
import type { PromptRoundResult, ResourceRoundResult } from '@parley/middleware';

import type { Context } from '../handler/context.ts';
import type {
  PromptDefinition,
  Registry,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from '../handler/definitions.ts';
import { toPromptResult, toResourceResult, toToolResult } from '../handler/results.ts';
import { splitArguments } from '../handler/fallback/listedArguments.ts';
import type { AskedRecord } from '../ask/asked.ts';
import { WireError } from './errors.ts';

/**
 * What one `tools/call`, `prompts/get` or `resources/read` is for, resolved from its params: the
 * handler, how to check its arguments, how to run it, and how its result is normalised. The
 * pipeline (`serveRound`) treats the four kinds alike through this.
 */

/** The methods a round can be. */
export type RoundMethod = 'tools/call' | 'prompts/get' | 'resources/read';

/** A round's result after normalisation: a tool's, a prompt's or a resource's, or an ask. */
export type NormalisedResult = ToolResult | PromptRoundResult | ResourceRoundResult;

export type ArgumentCheck = { ok: true; value: unknown } | { ok: false; issues: string[] };

export interface RoundTarget {
  /** The handler, as the context, middleware and warnings name it. */
  handler: HandlerInfo;
  /** The request's params as middleware sees them. */
  middlewareParams: Record<string, unknown>;
  /** What sealed state is bound to: the arguments exactly as the client sent them. */
  bindingArguments: unknown;
  /** The arguments to check, as sent. */
  arguments: unknown;
  /** How arguments are checked (at once, with nothing to await, when there is no schema). */
  check(args: unknown): ArgumentCheck | Promise<ArgumentCheck>;
  /**
   * Run the handler and normalise what it returned (at once when the handler answered at once).
   * A handler that throws synchronously throws here: the caller awaits inside its `try`.
   */
  run(args: unknown, ctx: Context): NormalisedResult | Promise<NormalisedResult>;
  /** Normalise what the middleware chain resolved to (it may return a value of its own). */
  normalise(value: unknown): NormalisedResult;
  /** Answers that may come without state: the asks the handler declared at registration. */
  declaredAsks: AskedRecord;
  /** The handler's options that shape a round. */
  options: { maxReasks: number | undefined; stateSchema: unknown };
  /** Tools: the output schema, for the result's check and projection. */
  tool?: ToolDefinition;
  /**
   * Tools under the `'arguments'` fallback: the arguments standing in for answers this client
   * cannot give, taken out of `arguments` before the tool's schema checks them.
   */
  askArguments: Readonly<Record<string, unknown>>;
}

/** The ask inside a normalised result, or `undefined` for a final one. */
export function askOf(result: NormalisedResult): InputRequiredResult | undefined {
  if (result instanceof InputRequiredToolResult) return result.toJSON();
  if (result instanceof ToolResult) return undefined;
  return isInputRequiredResult(result) ? result : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A promise, or anything `await` would treat as one. */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value instanceof Promise ||
    (typeof value === 'object' &&
      value !== null &&
      typeof (value as { then?: unknown }).then === 'function')
  );
}

/** The parts of a tool's target that do not depend on the request. */
type ToolParts = Pick<
  RoundTarget,
  'handler' | 'check' | 'run' | 'normalise' | 'declaredAsks' | 'options' | 'tool'
>;

/** Made once per tool, not per round: the same closures and records serve every call. */
const toolParts = new WeakMap<ToolDefinition, ToolParts>();

function partsOf(tool: ToolDefinition): ToolParts {
  let parts = toolParts.get(tool);
  if (parts === undefined) {
    const hasOutputSchema = tool.options.outputSchema !== undefined;
    parts = {
      handler: { kind: 'tool', name: tool.name, cacheable: tool.options.cacheable === true },
      check: (value) =>
        tool.input === undefined ? { ok: true, value } : tool.input.validate(value),
      // Not an async function: a handler's promise is followed with one `then`, not a frame.
      run: (value, ctx) => {
        const returned = tool.handler(value, ctx);
        return isThenable(returned)
          ? Promise.resolve(returned).then((result) => toToolResult(result, hasOutputSchema))
          : toToolResult(returned, hasOutputSchema);
      },
      normalise: (value) => toToolResult(value, hasOutputSchema),
      declaredAsks: tool.declaredAsks,
      options: { maxReasks: tool.options.maxReasks, stateSchema: tool.options.stateSchema },
      tool,
    };
    toolParts.set(tool, parts);
  }
  return parts;
}

function toolTarget(
  tool: ToolDefinition,
  params: Record<string, unknown>,
  capabilities: ClientCapabilities,
): RoundTarget {
  const parts = partsOf(tool);
  const args = params.arguments;
  const { own, answers } = splitArguments(args ?? {}, tool.fallback, capabilities);
  return {
    handler: parts.handler,
    middlewareParams: { name: tool.name, arguments: isRecord(args) ? args : {} },
    bindingArguments: args ?? {},
    arguments: own,
    askArguments: answers,
    check: parts.check,
    run: parts.run,
    normalise: parts.normalise,
    declaredAsks: parts.declaredAsks,
    options: parts.options,
    tool,
  };
}

function promptTarget(prompt: PromptDefinition, params: Record<string, unknown>): RoundTarget {
  const args = params.arguments;
  return {
    handler: { kind: 'prompt', name: prompt.name, cacheable: false },
    middlewareParams: { name: prompt.name, arguments: isRecord(args) ? args : {} },
    bindingArguments: args ?? {},
    arguments: args ?? {},
    check: (value) =>
      prompt.input === undefined ? { ok: true, value } : prompt.input.validate(value),
    run: async (value, ctx) => toPromptResult(await prompt.handler(value, ctx)),
    normalise: (value) => value as PromptRoundResult,
    askArguments: {},
    declaredAsks: prompt.declaredAsks,
    options: { maxReasks: prompt.options.maxReasks, stateSchema: prompt.options.stateSchema },
  };
}

function resourceTarget(
  uri: string,
  definition: ResourceDefinition | ResourceTemplateDefinition,
  handler: HandlerInfo,
  read: (ctx: Context) => Promise<unknown>,
): RoundTarget {
  const { mimeType } = definition.options;
  return {
    handler,
    middlewareParams: { uri },
    bindingArguments: {},
    arguments: {},
    check: (value) => ({ ok: true, value }),
    run: async (_value, ctx) => toResourceResult((await read(ctx)) as never, uri, mimeType),
    normalise: (value) => value as ResourceRoundResult,
    askArguments: {},
    declaredAsks: definition.declaredAsks,
    options: {
      maxReasks: definition.options.maxReasks,
      stateSchema: definition.options.stateSchema,
    },
  };
}

/**
 * The target of a round, or the protocol error for a name or URI nothing is registered under.
 * `params` has been checked to carry a string `name` (tools, prompts) or `uri` (resources);
 * `capabilities` are the client's, which decide what a tool's arguments may stand in for.
 */
export function resolveTarget(
  registry: Registry,
  method: RoundMethod,
  params: Record<string, unknown>,
  capabilities: ClientCapabilities,
): RoundTarget {
  if (method === 'tools/call') {
    const name = params.name as string;
    const tool = registry.tools.get(name);
    if (tool === undefined) throw new WireError(-32602, `Tool ${name} not found`);
    return toolTarget(tool, params, capabilities);
  }
  if (method === 'prompts/get') {
    const name = params.name as string;
    const prompt = registry.prompts.get(name);
    if (prompt === undefined) throw new WireError(-32602, `Prompt ${name} not found`);
    return promptTarget(prompt, params);
  }
  const uri = params.uri as string;
  const fixed = registry.resources.get(uri);
  if (fixed !== undefined) {
    return resourceTarget(
      uri,
      fixed,
      { kind: 'resource', name: uri, cacheable: fixed.options.cacheable === true },
      async (ctx) => fixed.handler(new URL(uri), ctx),
    );
  }
  for (const template of registry.templates) {
    const variables = template.matcher.match(uri);
    if (variables === null) continue;
    return resourceTarget(
      uri,
      template,
      {
        kind: 'resourceTemplate',
        name: uri,
        uriTemplate: template.uriTemplate,
        cacheable: template.options.cacheable === true,
      },
      async (ctx) => template.handler(new URL(uri), variables, ctx),
    );
  }
  throw new WireError(-32602, `Resource not found: ${uri}`, { uri });
}

/**
 * A final read that followed answers depends on them, and they are not part of any cache key:
 * on the modern protocol it says so with the strictest hints the spec allows (stale at once,
 * private), since the fields themselves are required on every read result.
 */
export function uncacheable(result: ReadResourceResult): ReadResourceResult {
  return { ...result, ttlMs: 0, cacheScope: 'private' } as ReadResourceResult;
}
