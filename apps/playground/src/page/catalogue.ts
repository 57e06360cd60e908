import type {
  Client,
  Prompt,
  Resource,
  ResourceTemplateType,
  TaskHandle,
  Tool,
} from '@parley/client';

import { fieldsOfSchema, type FieldSpec } from './argumentsForm.ts';
import { byId, describeError, h, uniqueId } from './dom.ts';
import type { CallOutcome } from './timeline.ts';

/**
 * What the server offers — its tools, prompts, resources and resource templates — as choices
 * the page can call, each with the fields of its arguments.
 */

export interface Choice {
  id: string;
  kind: 'tools' | 'prompts' | 'resources';
  method: 'tools/call' | 'prompts/get' | 'resources/read';
  /** The tool or prompt name, or the resource URI (template). */
  label: string;
  /** What the list shows first when there is one (a resource's title, else its name). */
  title?: string;
  description?: string;
  fields: FieldSpec[];
  /** Runs it; `onTask` hears of a tool call that became a task. */
  run(
    client: Client,
    args: Record<string, unknown>,
    signal: AbortSignal,
    onTask?: (task: TaskHandle) => void,
  ): Promise<CallOutcome>;
}

/** A resource's (or template's) title, else its name: what a person knows it by. */
function titleOf(resource: { title?: string | undefined; name?: string }): { title?: string } {
  const title = resource.title ?? resource.name;
  return title === undefined || title === '' ? {} : { title };
}

export interface Catalogue {
  choices: Choice[];
  /** Lists the server could not give (one line each). */
  problems: string[];
}

function toolChoice(tool: Tool): Choice {
  return {
    id: `tool:${tool.name}`,
    kind: 'tools',
    method: 'tools/call',
    label: tool.name,
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    fields: fieldsOfSchema(tool.inputSchema as Record<string, unknown>),
    run: async (client, args, signal, onTask) => ({
      kind: 'tool',
      result: await client.callTool(tool.name, args, {
        signal,
        ...(onTask === undefined ? {} : { onTask }),
      }),
    }),
  };
}

function promptChoice(prompt: Prompt): Choice {
  return {
    id: `prompt:${prompt.name}`,
    kind: 'prompts',
    method: 'prompts/get',
    label: prompt.name,
    ...(prompt.description !== undefined ? { description: prompt.description } : {}),
    fields: (prompt.arguments ?? []).map((argument) => ({
      name: argument.name,
      ...(argument.description !== undefined ? { description: argument.description } : {}),
      kind: 'string',
      required: argument.required === true,
    })),
    run: async (client, args, signal) => ({
      kind: 'prompt',
      result: await client.getPrompt(prompt.name, args as Record<string, string>, { signal }),
    }),
  };
}

function resourceChoice(resource: Resource): Choice {
  return {
    id: `resource:${resource.uri}`,
    kind: 'resources',
    method: 'resources/read',
    label: resource.uri,
    ...titleOf(resource),
    ...(resource.description !== undefined ? { description: resource.description } : {}),
    fields: [],
    run: async (client, _args, signal) => ({
      kind: 'resource',
      result: await client.readResource(resource.uri, { signal }),
    }),
  };
}

/** `{name}` and `{+name}` variables of a URI template (RFC 6570 level 1 and 2). */
function templateVariables(template: string): string[] {
  return [...template.matchAll(/\{\+?([\w.]+)\}/g)].map((match) => match[1]!);
}

function templateChoice(template: ResourceTemplateType): Choice {
  const { uriTemplate } = template;
  return {
    id: `template:${uriTemplate}`,
    kind: 'resources',
    method: 'resources/read',
    label: uriTemplate,
    ...titleOf(template),
    ...(template.description !== undefined ? { description: template.description } : {}),
    fields: templateVariables(uriTemplate).map((name) => ({
      name,
      kind: 'string',
      required: true,
    })),
    run: async (client, args, signal) => {
      const uri = uriTemplate.replace(
        /\{(\+?)([\w.]+)\}/g,
        (_whole, reserved: string, name: string) => {
          const value = String(args[name] ?? '');
          return reserved === '+' ? encodeURI(value) : encodeURIComponent(value);
        },
      );
      return { kind: 'resource', result: await client.readResource(uri, { signal }) };
    },
  };
}

/** Everything `client`'s server lists; a list it refuses is a problem, not a failure. */
export async function catalogueOf(client: Client): Promise<Catalogue> {
  const problems: string[] = [];
  const list = async <T>(what: string, get: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await get();
    } catch (error) {
      problems.push(`Listing ${what} failed: ${describeError(error)}.`);
      return [];
    }
  };
  const [tools, prompts, resources, templates] = await Promise.all([
    list('tools', () => client.listTools()),
    list('prompts', () => client.listPrompts()),
    list('resources', () => client.listResources()),
    list('resource templates', () => client.listResourceTemplates()),
  ]);
  return {
    choices: [
      ...tools.map(toolChoice),
      ...prompts.map(promptChoice),
      ...resources.map(resourceChoice),
      ...templates.map(templateChoice),
    ],
    problems,
  };
}

/** The choices as buttons in the three lists; `choose` is called with the one picked. */
export function renderCatalogue(catalogue: Catalogue, choose: (choice: Choice) => void): void {
  for (const kind of ['tools', 'prompts', 'resources'] as const) {
    const list = byId<HTMLUListElement>(kind);
    const choices = catalogue.choices.filter((choice) => choice.kind === kind);
    list.replaceChildren(
      ...choices.map((choice) => {
        // Named by what it calls; its description, beside it, is read after the name.
        const descriptionId = uniqueId('choice-description');
        const button = h(
          'button',
          {
            type: 'button',
            class: 'name',
            'data-choice': choice.id,
            'aria-pressed': 'false',
            'aria-describedby': choice.description !== undefined ? descriptionId : undefined,
          },
          choice.title ?? choice.label,
        );
        button.addEventListener('click', () => choose(choice));
        return h(
          'li',
          {},
          button,
          // A titled resource: its URI second, what a call reads.
          choice.title === undefined ? null : h('code', { class: 'uri' }, choice.label),
          choice.description !== undefined
            ? h('span', { class: 'description', id: descriptionId }, choice.description)
            : null,
        );
      }),
    );
    if (choices.length === 0) list.append(h('li', { class: 'empty' }, `No ${kind}.`));
  }
}
