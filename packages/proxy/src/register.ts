import type { ParleyServer, PromptArgument } from '@parley/server';
import type { Client, Prompt, Resource, ResourceTemplateType, Tool } from '@parley/client';

import { passThroughOption } from './passThrough.ts';
import { relay, type RelayDeps } from './relay.ts';

/**
 * What the upstream offers, registered on the downstream `ParleyServer` as it was listed: each
 * tool with its JSON Schema as written, each prompt with its arguments, each resource and
 * template with the fields MCP lists them with. Every handler relays its call (`relay.ts`);
 * with a modern upstream, a modern client's rounds pass through instead (`passThrough.ts`).
 */

/**
 * A tool the upstream may run as a task: its calls go through a held call, which drives the
 * task to its end, never through as a task the proxy could not answer `tasks/get` for.
 */
function mayBecomeTask(tool: Tool): boolean {
  const support = tool.execution?.taskSupport;
  return support === 'optional' || support === 'required';
}

/** The listed fields a tool keeps (its schema is passed as JSON Schema, listed as written). */
function toolOptions(tool: Tool, deps: RelayDeps): Record<string, unknown> {
  return {
    ...(mayBecomeTask(tool) ? {} : passThroughOption(deps)),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.description === undefined ? {} : { description: tool.description }),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
    ...(tool._meta === undefined ? {} : { _meta: tool._meta }),
  };
}

/** A tool's final result as the downstream wire carries it. */
function toolResultOf(result: Record<string, unknown>): Record<string, unknown> {
  const { content, structuredContent, isError, _meta } = result;
  return {
    content,
    ...(structuredContent === undefined ? {} : { structuredContent }),
    ...(isError === true ? { isError: true } : {}),
    ...(_meta === undefined ? {} : { _meta }),
  };
}

/**
 * A prompt's listed arguments as the Standard JSON Schema object `ParleyServer` reads prompt
 * arguments from: strings, required as listed, each kept with its description. Any object
 * passes its validation: the upstream checks its own arguments.
 */
function promptArguments(list: readonly PromptArgument[]): object {
  const schema = {
    type: 'object',
    properties: Object.fromEntries(
      list.map(({ name, description }) => [
        name,
        { type: 'string', ...(description === undefined ? {} : { description }) },
      ]),
    ),
    required: list.filter((argument) => argument.required).map(({ name }) => name),
  };
  return {
    '~standard': {
      version: 1,
      vendor: 'parley-proxy',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => schema, output: () => schema },
    },
  };
}

const RESOURCE_FIELDS = [
  'name',
  'title',
  'description',
  'mimeType',
  'size',
  'annotations',
  'icons',
  '_meta',
] as const;

function resourceOptions(
  resource: Resource | ResourceTemplateType,
  deps: RelayDeps,
): { name: string } {
  const options: Record<string, unknown> = passThroughOption(deps);
  for (const field of RESOURCE_FIELDS) {
    if (resource[field as keyof typeof resource] !== undefined) {
      options[field] = resource[field as keyof typeof resource];
    }
  }
  return options as { name: string };
}

/** What the proxy registered already, by kind and name: a list that changes adds, never twice. */
export type Registered = Set<string>;

/** The lists a change notification can name. */
export type ListKind = 'tools' | 'prompts' | 'resources';

const has = <T>(promise: Promise<T[]>): Promise<T[]> => promise.catch(() => []);

/**
 * List what the upstream offers (all of it, or the `kinds` that changed) and register a relaying
 * handler for each entry not registered yet. A `ParleyServer` cannot take a registration back,
 * so an entry the upstream drops stays listed, and calling it gets the upstream's error.
 */
export async function registerUpstream(
  server: ParleyServer,
  lister: Client,
  deps: RelayDeps,
  registered: Registered,
  kinds: readonly ListKind[] = ['tools', 'prompts', 'resources'],
): Promise<void> {
  const fresh = (key: string): boolean => {
    if (registered.has(key)) return false;
    registered.add(key);
    return true;
  };
  if (kinds.includes('tools')) {
    for (const tool of await has(lister.listTools())) {
      if (!fresh(`tool:${tool.name}`)) continue;
      server.tool(tool.name, toolOptions(tool, deps) as never, async (args: unknown, ctx) => {
        const result = await relay(ctx, deps, (client, options) =>
          client.callTool(tool.name, args as Record<string, unknown>, options),
        );
        return toolResultOf(result as Record<string, unknown>) as never;
      });
    }
  }
  if (kinds.includes('prompts')) {
    for (const prompt of await has(lister.listPrompts())) {
      if (fresh(`prompt:${prompt.name}`)) registerPrompt(server, prompt, deps);
    }
  }
  if (!kinds.includes('resources')) return;
  const [resources, templates] = await Promise.all([
    has(lister.listResources()),
    has(lister.listResourceTemplates()),
  ]);
  for (const resource of resources) {
    if (!fresh(`resource:${resource.uri}`)) continue;
    server.resource(
      resource.uri,
      resourceOptions(resource, deps),
      async (_uri, ctx) =>
        (await relay(ctx, deps, (client, options) =>
          client.readResource(resource.uri, options),
        )) as never,
    );
  }
  for (const template of templates) {
    if (!fresh(`template:${template.uriTemplate}`)) continue;
    server.resourceTemplate(
      template.uriTemplate,
      resourceOptions(template, deps),
      async (uri, _v, ctx) =>
        (await relay(ctx, deps, (client, options) =>
          client.readResource(uri.href, options),
        )) as never,
    );
  }
}

function registerPrompt(server: ParleyServer, prompt: Prompt, deps: RelayDeps): void {
  const list = (prompt.arguments ?? []).map((argument) => ({
    name: argument.name,
    required: argument.required === true,
    ...(argument.description === undefined ? {} : { description: argument.description }),
  }));
  const options = {
    ...passThroughOption(deps),
    arguments: promptArguments(list),
    ...(prompt.title === undefined ? {} : { title: prompt.title }),
    ...(prompt.description === undefined ? {} : { description: prompt.description }),
    ...(prompt._meta === undefined ? {} : { _meta: prompt._meta }),
  };
  server.prompt(
    prompt.name,
    options as never,
    async (args: unknown, ctx) =>
      (await relay(ctx, deps, (client, options) =>
        client.getPrompt(prompt.name, args as Record<string, string>, options),
      )) as never,
  );
}
