import { checkOptionKeys, optionKeys, type HandlerInfo, type InputRequest } from '@parley/core';
import type { CompiledResponseType } from '@parley/schema';

import { askedEntryOf, type AskedRecord } from '../ask/asked.ts';
import { declaredFormAsk } from '../ask/builders.ts';
import { compiled } from '../ask/compiled.ts';
import { declaredSchema, isDeclaredRequest, type DeclaredAsk } from '../ask/schemaWarnings.ts';
import type {
  PromptDefinition,
  PromptHandler,
  PromptOptions,
  Registry,
  ResourceDefinition,
  ResourceHandler,
  ResourceOptions,
  ResourceTemplateDefinition,
  ResourceTemplateHandler,
  ToolDefinition,
  ToolHandler,
  ToolOptions,
} from '../handler/definitions.ts';
import { toolFallbackOf, type ToolFallback } from '../handler/fallback/argumentSlots.ts';
import { checkFallback, type AskFallback } from '../handler/fallback/policy.ts';
import { paramHeadersOf } from '../handler/paramHeaders.ts';
import {
  objectSchemaOf,
  outputJsonSchemaOf,
  promptArgumentsOf,
  toolInputOf,
  type ParameterSchema,
  type ToolInputSchema,
} from '../handler/parameters.ts';
import { resolveTaskOptions } from '../handler/taskOptions.ts';
import { uriTemplate as templateMatcher, uriTemplatesReady } from '../handler/uriTemplates.ts';
import type { RoundRuntime } from '../round/roundRuntime.ts';

/**
 * What `ParleyServer.tool()`, `prompt()`, `resource()` and `resourceTemplate()` register: each
 * registration is checked here, once (names, schemas, declared asks compiled and linted, the
 * fallback policy against the asks), so a mistake fails at start-up, never on a request. The
 * maps are the live registry every round resolves its handler from.
 */

/** Handler options that were removed, and what to use instead. */
const RETIRED_HANDLER_OPTIONS = {
  stateSchema:
    'it went with inputRequired({ state }): carry a string in requestState (JSON.parse ctx.requestState and check it there), or keep values with ctx.remember',
};

/** The keys a tool's, a prompt's and a resource's options take. */
const TOOL_OPTIONS = optionKeys<AnyToolOptions>()(
  [
    'title',
    'description',
    'inputSchema',
    'outputSchema',
    'annotations',
    'cacheable',
    'askFallback',
    'task',
    '_meta',
    'asks',
    'maxReasks',
    'relayRound',
  ],
  RETIRED_HANDLER_OPTIONS,
);

const PROMPT_OPTIONS = optionKeys<AnyPromptOptions>()(
  ['title', 'description', 'arguments', 'complete', '_meta', 'asks', 'maxReasks', 'relayRound'],
  RETIRED_HANDLER_OPTIONS,
);

const RESOURCE_OPTIONS = optionKeys<ResourceOptions>()(
  [
    'name',
    'title',
    'description',
    'mimeType',
    'size',
    'annotations',
    'icons',
    'complete',
    'cacheable',
    '_meta',
    'asks',
    'maxReasks',
    'relayRound',
  ],
  RETIRED_HANDLER_OPTIONS,
);

export type AnyToolOptions = ToolOptions<ToolInputSchema | undefined>;
export type AnyPromptOptions = PromptOptions<ParameterSchema | undefined>;

export class Registrations implements Registry {
  readonly tools: Map<string, ToolDefinition> = new Map();
  readonly prompts: Map<string, PromptDefinition> = new Map();
  readonly resources: Map<string, ResourceDefinition> = new Map();
  readonly templates: ResourceTemplateDefinition[] = [];
  readonly #lintSchema: RoundRuntime['lintSchema'];
  /** The server's default `askFallback`. */
  readonly #askFallback: AskFallback | undefined;

  constructor(lintSchema: RoundRuntime['lintSchema'], askFallback: AskFallback | undefined) {
    this.#lintSchema = lintSchema;
    this.#askFallback = askFallback;
  }

  addTool(
    name: string,
    optionsOrHandler: AnyToolOptions | ToolHandler<never>,
    maybeHandler: ToolHandler<never> | undefined,
  ): void {
    const [options, handler] = splitArgs<AnyToolOptions, ToolHandler<never>>(
      'tool',
      optionsOrHandler,
      maybeHandler,
    );
    assertNew('tool', this.tools, name);
    const api = `tool '${name}'`;
    checkOptionKeys(api, 'options', options, TOOL_OPTIONS);
    const input = toolInputOf(api, options.inputSchema);
    checkHandlerOptions(api, options);
    const declared = this.#checkAsks(
      api,
      { kind: 'tool', name, cacheable: options.cacheable === true },
      options.asks,
    );
    this.tools.set(name, {
      name,
      options,
      declaredAsks: declared.record,
      fallback: this.#fallbackOf(api, options, declared.requests, input?.jsonSchema),
      input,
      paramHeaders: input === undefined ? [] : paramHeadersOf(input.jsonSchema),
      outputJsonSchema:
        options.outputSchema === undefined ? undefined : outputJsonSchemaOf(options.outputSchema),
      task: resolveTaskOptions(api, options.task),
      handler: handler as ToolHandler<unknown>,
    });
  }

  addPrompt(
    name: string,
    optionsOrHandler: AnyPromptOptions | PromptHandler<never>,
    maybeHandler: PromptHandler<never> | undefined,
  ): void {
    const [options, handler] = splitArgs<AnyPromptOptions, PromptHandler<never>>(
      'prompt',
      optionsOrHandler,
      maybeHandler,
    );
    assertNew('prompt', this.prompts, name);
    const api = `prompt '${name}'`;
    checkOptionKeys(api, 'options', options, PROMPT_OPTIONS);
    const input = objectSchemaOf(api, options.arguments);
    checkHandlerOptions(api, options);
    this.prompts.set(name, {
      name,
      options,
      declaredAsks: this.#checkAsks(api, { kind: 'prompt', name, cacheable: false }, options.asks)
        .record,
      input,
      argumentList: promptArgumentsOf(input),
      handler: handler as PromptHandler<unknown>,
    });
  }

  addResource(uri: string, options: ResourceOptions, handler: ResourceHandler): void {
    if (!URL.canParse(uri))
      throw new TypeError(`resource: ${JSON.stringify(uri)} is not an absolute URI.`);
    assertNew('resource', this.resources, uri);
    const api = `resource '${uri}'`;
    checkOptionKeys(api, 'options', options, RESOURCE_OPTIONS);
    assertName('resource', options);
    checkHandlerOptions(api, options);
    this.resources.set(uri, {
      uri,
      options,
      declaredAsks: this.#checkAsks(
        api,
        { kind: 'resource', name: uri, cacheable: options.cacheable === true },
        options.asks,
      ).record,
      handler: handler as ResourceHandler,
    });
  }

  addTemplate(
    uriTemplate: string,
    options: ResourceOptions,
    handler: ResourceTemplateHandler,
  ): void {
    if (this.templates.some((template) => template.uriTemplate === uriTemplate)) {
      throw new TypeError(`resourceTemplate: '${uriTemplate}' is already registered.`);
    }
    const api = `resourceTemplate '${uriTemplate}'`;
    checkOptionKeys(api, 'options', options, RESOURCE_OPTIONS);
    assertName('resourceTemplate', options);
    checkHandlerOptions(api, options);
    this.templates.push({
      uriTemplate,
      options,
      declaredAsks: this.#checkAsks(
        api,
        {
          kind: 'resourceTemplate',
          name: uriTemplate,
          uriTemplate,
          cacheable: options.cacheable === true,
        },
        options.asks,
      ).record,
      matcher: templateMatcher(uriTemplate),
      handler: handler as ResourceTemplateHandler,
    });
  }

  /** The `Mcp-Param-*` headers a tool's arguments are mirrored into (none for an unknown name). */
  paramHeadersOf(name: string): ToolDefinition['paramHeaders'] {
    return this.tools.get(name)?.paramHeaders ?? [];
  }

  /** What must be loaded before anything is served (the SDK, when resource templates need it). */
  ready(): Promise<void> {
    return this.templates.length === 0 ? Promise.resolve() : uriTemplatesReady();
  }

  /**
   * Compile and lint the asks a handler declares, before it is ever called; their record is
   * what a first round may accept answers to (a client answering before being asked).
   */
  #checkAsks(
    api: string,
    handler: HandlerInfo,
    asks: Record<string, DeclaredAsk> | undefined,
  ): { record: AskedRecord; requests: Record<string, InputRequest> } {
    if (asks !== undefined && (typeof asks !== 'object' || asks === null || Array.isArray(asks))) {
      throw new TypeError(`${api}: asks must be an object of asks by key.`);
    }
    const record: Record<string, AskedRecord[string]> = {};
    const requests: Record<string, InputRequest> = {};
    for (const [key, ask] of Object.entries(asks ?? {})) {
      const schema = declaredSchema(api, key, ask);
      if (schema !== undefined) this.#lintSchema({ handler, key }, schema);
      requests[key] = isDeclaredRequest(ask)
        ? ask
        : declaredFormAsk(compiled(ask) as CompiledResponseType<unknown>);
      record[key] = askedEntryOf(requests[key]);
    }
    return { record, requests };
  }

  /** A tool's fallback policy (its own, or the server's default), checked against its asks. */
  #fallbackOf(
    api: string,
    options: { askFallback?: AskFallback },
    declared: Record<string, InputRequest>,
    inputJsonSchema: Record<string, unknown> | undefined,
  ): ToolFallback | undefined {
    const own = checkFallback(api, options.askFallback);
    const policy = own ?? this.#askFallback;
    if (policy === undefined || policy === 'error') return undefined;
    const declaresAsks = Object.keys(declared).length > 0;
    if ((policy === 'hide' || policy === 'arguments') && !declaresAsks) {
      if (own === undefined) return undefined;
      throw new TypeError(
        `${api}: askFallback '${policy}' needs the tool's asks declared (options.asks), so a ` +
          'listing knows what a client must be able to answer.',
      );
    }
    return toolFallbackOf(api, policy, declared, inputJsonSchema);
  }
}

function assertNew(api: string, registry: ReadonlyMap<string, unknown>, key: string): void {
  if (typeof key !== 'string' || key.length === 0)
    throw new TypeError(`${api}: the name must be a non-empty string.`);
  if (registry.has(key)) throw new TypeError(`${api}: '${key}' is already registered.`);
}

/** The `(name, handler)` and `(name, options, handler)` forms, as one pair. */
function splitArgs<TOptions extends object, THandler>(
  api: string,
  optionsOrHandler: TOptions | THandler,
  maybeHandler: THandler | undefined,
): [TOptions, THandler] {
  const handler = typeof optionsOrHandler === 'function' ? optionsOrHandler : maybeHandler;
  if (typeof handler !== 'function') throw new TypeError(`${api}: a handler function is required.`);
  const options = typeof optionsOrHandler === 'function' ? {} : optionsOrHandler;
  return [options as TOptions, handler as THandler];
}

/** The options every handler shares, checked where it is registered. */
function checkHandlerOptions(
  api: string,
  options: { maxReasks?: unknown; relayRound?: unknown },
): void {
  const { maxReasks, relayRound } = options;
  if (relayRound !== undefined && typeof relayRound !== 'function') {
    throw new TypeError(`${api}: relayRound must be a function (round) => result | undefined.`);
  }
  if (maxReasks !== undefined && (!Number.isSafeInteger(maxReasks) || (maxReasks as number) < 0)) {
    throw new RangeError(
      `${api}: maxReasks must be a whole number >= 0 (got ${String(maxReasks)}).`,
    );
  }
}

function assertName(api: string, options: { name?: unknown }): void {
  if (typeof options?.name !== 'string' || options.name.length === 0) {
    throw new TypeError(`${api}: options.name must be a non-empty string.`);
  }
}
