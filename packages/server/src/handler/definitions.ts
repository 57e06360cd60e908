import type { ContentAnnotations, Meta } from '@parley/core';
import type { Icon, Variables } from '@modelcontextprotocol/server';
import type * as z from 'zod';

import type { Context } from './context.ts';
import type { PromptReturn, ResourceReturn, ToolReturn } from './kinds/returns.ts';
import type { ParamHeader } from './paramHeaders.ts';
import type { RoundRelay } from './relayRound.ts';
import type { AskedRecord } from '../ask/asked.ts';
import type { ToolFallback } from './fallback/argumentSlots.ts';
import type { AskFallback } from './fallback/policy.ts';
import type { ResolvedTaskOptions, ToolTaskOption } from './taskOptions.ts';
import type { DeclaredAsk } from '../ask/schemaWarnings.ts';
import type {
  JsonSchemaObject,
  ParameterSchema,
  PromptArgument,
  ToolInput,
  ToolInputSchema,
} from './parameters.ts';

/**
 * What an author registers: tools, prompts, resources and resource templates, with schemas for
 * their parameters from any Standard JSON Schema library (zod, valibot, ArkType, …).
 */

/** Suggests values for one argument of a prompt or resource template, from what was typed. */
export type Completer = (
  value: string,
  context: { arguments: Record<string, string> },
) => readonly string[] | Promise<readonly string[]>;

/** What every handler can declare. */
interface HandlerOptions {
  /**
   * The asks this handler makes, by key: the very ask values it passes to `ctx.ask` (built by
   * `elicitRequest`, `elicitUrlRequest`, `sampleRequest`, `rootsRequest`), or response types. Optional;
   * declared asks are compiled and linted at registration, so a schema the spec cannot express
   * fails there, and compatibility warnings reach `onWarning` before the first call. They are
   * also the only answers a first round may bring before anything was asked (a client that
   * answers up front); without a declaration such answers are ignored.
   */
  asks?: Record<string, DeclaredAsk>;
  /**
   * How many times an answer that does not fit is asked again (with what was wrong) before the
   * handler gets the `InvalidAnswerError`. Default: the server's `maxReasks` (3).
   */
  maxReasks?: number;
  /**
   * For proxies and gateways: answers a modern-era round before Parley opens any state, passing
   * it through to another server (`inputResponses` and `requestState` untouched, its
   * `InputRequiredResult` sent back as it is), inside the server's middleware. The handler runs
   * instead on the handshake era, on the App route, and for a host whose forms Parley adapts.
   * `ParleyProxy` uses it for modern-to-modern calls.
   */
  relayRound?: RoundRelay;
}

/** Hints about a tool's behaviour, as MCP defines them. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolOptions<
  TSchema extends ToolInputSchema | undefined = undefined,
> extends HandlerOptions {
  title?: string;
  description?: string;
  /**
   * The tool's parameters: a `z.object(...)` or its shape, or an object schema from any Standard
   * JSON Schema library (ArkType, valibot through `toStandardJsonSchema()`, …): the handler's
   * `args` are validated by that library and typed from it. Or a JSON Schema object, listed
   * exactly as written and validated as JSON.
   */
  inputSchema?: TSchema;
  /**
   * The structured result's schema; returned values are checked against it. A zod schema, or a
   * JSON Schema object (`type: 'object'`), listed exactly as written and checked as JSON.
   */
  outputSchema?: z.ZodType | JsonSchemaObject;
  annotations?: ToolAnnotations;
  /**
   * The tool's final result depends only on its arguments, so `ResponseCachingMiddleware` may
   * serve it again for the same arguments (per principal, until its TTL). Asks, error results,
   * continuation rounds and handshake calls that elicited are never cached. Default false.
   */
  cacheable?: boolean;
  /**
   * What this tool does for a client that lacks what its asks need: `'error'`, `'hide'`,
   * `'arguments'` or a function (see {@link AskFallback}). Default: the server's `askFallback`,
   * else `'error'`. `'hide'` and `'arguments'` need `asks` declared.
   */
  askFallback?: AskFallback;
  /**
   * Run the tool as a task (long-running work that can wait for answers for hours):
   * `'optional'` (a task for clients that can take one, a plain call for the others),
   * `'required'` (only as a task), or `{ support, start?, ttlMs?, pollIntervalMs? }`. Inside a
   * task, `ctx.ask` and `ctx.elicit` put their questions on the task and wait for the answers.
   */
  task?: ToolTaskOption;
  _meta?: Meta;
}

export type ToolHandler<TArgs> = (args: TArgs, ctx: Context) => ToolReturn | Promise<ToolReturn>;

export interface PromptOptions<
  TSchema extends ParameterSchema | undefined = undefined,
> extends HandlerOptions {
  title?: string;
  description?: string;
  /**
   * The prompt's arguments (MCP prompt arguments are strings), from any library a tool's
   * `inputSchema` may use; validated the same way.
   */
  arguments?: TSchema;
  /** Suggestions for arguments as the user types (`completion/complete`), by argument name. */
  complete?: Record<string, Completer>;
  _meta?: Meta;
}

export type PromptHandler<TArgs> = (
  args: TArgs,
  ctx: Context,
) => PromptReturn | Promise<PromptReturn>;

/**
 * A resource's (or resource template's) options: Parley's own (`complete`, `cacheable`, `asks`,
 * `maxReasks`) and the fields MCP lists a resource with (`name`, `title`, `description`,
 * `mimeType`, `size`, `annotations`, `icons`, `_meta`). Any other key is refused where the
 * resource is registered, as every options object's is.
 */
export interface ResourceOptions extends HandlerOptions {
  name: string;
  /** Resource templates: suggestions for each variable as the user types, by variable name. */
  complete?: Record<string, Completer>;
  title?: string;
  description?: string;
  mimeType?: string;
  /** The size of the raw contents in bytes, if known (listed; a fixed resource's). */
  size?: number;
  /** Who the resource is for, how important it is, when it last changed (listed as given). */
  annotations?: ContentAnnotations;
  /** Icons a client may show for the resource (listed as given). */
  icons?: Icon[];
  /**
   * The contents depend only on the URI, so `ResponseCachingMiddleware` may serve them again
   * (per principal, until its TTL). Asks and continuation rounds are never cached. Default false.
   */
  cacheable?: boolean;
  _meta?: Meta;
}

export type ResourceHandler = (uri: URL, ctx: Context) => ResourceReturn | Promise<ResourceReturn>;

export type ResourceTemplateHandler = (
  uri: URL,
  variables: Record<string, string | string[]>,
  ctx: Context,
) => ResourceReturn | Promise<ResourceReturn>;

/** A registered tool, as the server keeps it. */
export interface ToolDefinition {
  name: string;
  options: ToolOptions<ToolInputSchema | undefined>;
  /** The declared asks, as the record a round screens answers with. */
  declaredAsks: AskedRecord;
  /** What the tool does for clients that cannot answer its asks; `undefined`: `'error'`. */
  fallback: ToolFallback | undefined;
  input: ToolInput | undefined;
  /** Arguments the client mirrors into `Mcp-Param-*` headers (SEP-2243). */
  paramHeaders: readonly ParamHeader[];
  outputJsonSchema: Record<string, unknown> | undefined;
  /** How the tool runs as a task, with the defaults applied; `undefined`: never. */
  task: ResolvedTaskOptions | undefined;
  handler: ToolHandler<unknown>;
}

export interface PromptDefinition {
  name: string;
  options: PromptOptions<ParameterSchema | undefined>;
  declaredAsks: AskedRecord;
  /** The prompt's arguments, listed and validated exactly as a tool's parameters are. */
  input: ToolInput | undefined;
  argumentList: PromptArgument[] | undefined;
  handler: PromptHandler<unknown>;
}

export interface ResourceDefinition {
  uri: string;
  options: ResourceOptions;
  declaredAsks: AskedRecord;
  handler: ResourceHandler;
}

export interface ResourceTemplateDefinition {
  uriTemplate: string;
  options: ResourceOptions;
  declaredAsks: AskedRecord;
  /** Checked at registration, compiled on first use (see `uriTemplates.ts`). */
  matcher: { match(uri: string): Variables | null };
  handler: ResourceTemplateHandler;
}

/** What is registered, as the round resolves a request's handler from it (the live maps). */
export interface Registry {
  tools: ReadonlyMap<string, ToolDefinition>;
  prompts: ReadonlyMap<string, PromptDefinition>;
  resources: ReadonlyMap<string, ResourceDefinition>;
  templates: readonly ResourceTemplateDefinition[];
}
