import type { ClientCapabilities } from '@parley/core';

import type { Registry } from '../handler/definitions.ts';
import { promptTarget } from '../handler/kinds/prompt.ts';
import { resourceTarget } from '../handler/kinds/resource.ts';
import type { RoundTarget } from '../handler/kinds/target.ts';
import { toolTarget } from '../handler/kinds/tool.ts';
import { WireError } from './errors.ts';

/**
 * A round's target, by method: the handler kinds make their own (`handler/kinds/`), and a name
 * or URI nothing is registered under is the protocol's own error.
 */

/** The methods a round can be. */
export type RoundMethod = 'tools/call' | 'prompts/get' | 'resources/read';

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
    if (tool === undefined) throw new WireError('invalidParams', `Tool ${name} not found`);
    return toolTarget(tool, params, capabilities);
  }
  if (method === 'prompts/get') {
    const name = params.name as string;
    const prompt = registry.prompts.get(name);
    if (prompt === undefined) throw new WireError('invalidParams', `Prompt ${name} not found`);
    return promptTarget(prompt, params);
  }
  const uri = params.uri as string;
  const resource = resourceTarget(registry, uri);
  if (resource === undefined)
    throw new WireError('invalidParams', `Resource not found: ${uri}`, { uri });
  return resource;
}
