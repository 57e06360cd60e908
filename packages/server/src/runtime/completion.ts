import { isRecord, jsonRpcError } from '@parley/core';

import type {
  Completer,
  PromptDefinition,
  ResourceTemplateDefinition,
} from '../handler/definitions.ts';
import type { RoundReply } from '../round/request.ts';

/** MCP caps a completion answer at 100 values. */
const MAX_VALUES = 100;

function invalid(message: string): RoundReply {
  return { kind: 'error', error: jsonRpcError('invalidParams', message) };
}

/**
 * Answer `completion/complete` for prompt arguments and resource-template variables from the
 * `complete` option they were registered with; an argument without a completer gets no
 * suggestions (an empty list, not an error).
 */
export async function complete(
  prompts: ReadonlyMap<string, PromptDefinition>,
  templates: readonly ResourceTemplateDefinition[],
  params: unknown,
): Promise<RoundReply> {
  if (!isRecord(params) || !isRecord(params.ref) || !isRecord(params.argument)) {
    return invalid('Invalid params: completion/complete needs ref and argument objects');
  }
  const { ref, argument, context } = params;
  if (typeof argument.name !== 'string' || typeof argument.value !== 'string') {
    return invalid(
      'Invalid params: completion/complete needs argument.name and argument.value (strings)',
    );
  }
  let completer: Completer | undefined;
  if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
    const prompt = prompts.get(ref.name);
    if (prompt === undefined) return invalid(`Prompt ${ref.name} not found`);
    completer = prompt.options.complete?.[argument.name];
  } else if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
    const uri = ref.uri;
    const template = templates.find((candidate) => candidate.uriTemplate === uri);
    if (template === undefined) return invalid(`Resource template ${uri} not found`);
    completer = template.options.complete?.[argument.name];
  } else {
    return invalid(
      "Invalid params: completion/complete's ref must be { type: 'ref/prompt', name } or { type: 'ref/resource', uri }",
    );
  }
  const typed = isRecord(context) && isRecord(context.arguments) ? context.arguments : {};
  const values =
    completer === undefined
      ? []
      : await completer(argument.value, { arguments: typed as Record<string, string> });
  return {
    kind: 'result',
    result: {
      completion: {
        values: values.slice(0, MAX_VALUES),
        total: values.length,
        hasMore: values.length > MAX_VALUES,
      },
    },
  };
}
