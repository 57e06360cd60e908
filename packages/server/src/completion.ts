import { ProtocolError, type Server } from '@modelcontextprotocol/server';

import type { PromptDefinition, ResourceTemplateDefinition } from './definitions.ts';

/** Suggests values for one argument of a prompt or resource template, from what was typed. */
export type Completer = (
  value: string,
  context: { arguments: Record<string, string> },
) => readonly string[] | Promise<readonly string[]>;

/** MCP caps a completion answer at 100 values. */
const MAX_VALUES = 100;

/**
 * Answer `completion/complete` for prompt arguments and resource-template variables from the
 * `complete` option they were registered with; an argument without a completer gets no
 * suggestions (an empty list, not an error).
 */
export function registerCompletion(
  server: Server,
  prompts: ReadonlyMap<string, PromptDefinition>,
  templates: readonly ResourceTemplateDefinition[],
): void {
  server.setRequestHandler('completion/complete', async (request) => {
    const { ref, argument, context } = request.params;
    let completer: Completer | undefined;
    if (ref.type === 'ref/prompt') {
      const prompt = prompts.get(ref.name);
      if (prompt === undefined) throw new ProtocolError(-32602, `Prompt ${ref.name} not found`);
      completer = prompt.options.complete?.[argument.name];
    } else {
      const template = templates.find((candidate) => candidate.uriTemplate === ref.uri);
      if (template === undefined)
        throw new ProtocolError(-32602, `Resource template ${ref.uri} not found`);
      completer = template.options.complete?.[argument.name];
    }
    const values =
      completer === undefined
        ? []
        : await completer(argument.value, { arguments: context?.arguments ?? {} });
    return {
      completion: {
        values: values.slice(0, MAX_VALUES),
        total: values.length,
        hasMore: values.length > MAX_VALUES,
      },
    };
  });
}
