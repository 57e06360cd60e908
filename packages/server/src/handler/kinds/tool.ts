import {
  InputRequiredToolResult,
  ToolResult,
  isInputRequiredResult,
  isRecord,
  type CallToolResult,
  type ClientCapabilities,
  type ContentBlock,
} from '@parley/core';
import type * as z from 'zod';

import { RoundFault } from '../../flow/roundFault.ts';
import { refuseJsonState } from '../../flow/seal.ts';
import type { ToolDefinition } from '../definitions.ts';
import { toolInputOf, type ToolInput } from '../parameters.ts';
import { splitArguments } from '../fallback/listedArguments.ts';
import { textBlock, type ResultWire, type RoundTarget } from './target.ts';

const CONTENT_TYPES: ReadonlySet<unknown> = new Set([
  'text',
  'image',
  'audio',
  'resource_link',
  'resource',
]);

function isContentBlock(value: unknown): value is ContentBlock {
  return isRecord(value) && CONTENT_TYPES.has(value.type);
}

/**
 * A tool's return value as one round's result: a string, content blocks, a plain object
 * (structured content), a full result, or an ask. With an output schema, a returned value is the
 * structured content (scalars included) and its JSON is also sent as text for older clients.
 */
export function toToolResult(value: unknown, hasOutputSchema: boolean): ToolResult {
  if (value instanceof ToolResult) return value;
  if (isInputRequiredResult(value)) {
    refuseJsonState(value);
    return new InputRequiredToolResult(value);
  }
  if (value === undefined || value === null) return new ToolResult();
  if (isRecord(value) && Array.isArray(value.content) && value.content.every(isContentBlock)) {
    return new ToolResult(value as ConstructorParameters<typeof ToolResult>[0]);
  }
  if (!hasOutputSchema) {
    if (typeof value === 'string') return new ToolResult({ content: [textBlock(value)] });
    if (isContentBlock(value)) return new ToolResult({ content: [value] });
    if (Array.isArray(value) && value.length > 0 && value.every(isContentBlock)) {
      return new ToolResult({ content: value });
    }
    if (typeof value === 'number' || typeof value === 'boolean') {
      return new ToolResult({ content: [textBlock(String(value))] });
    }
  }
  return new ToolResult({
    content: [textBlock(typeof value === 'string' ? value : JSON.stringify(value))],
    structuredContent: value as Record<string, unknown>,
  });
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

/**
 * A tool's final result, checked against its output schema (an author's mistake no model can
 * fix: a `RoundFault`) and projected for the connection's wire.
 */
function finishTool(
  tool: ToolDefinition,
  result: ToolResult,
  wire: ResultWire,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  const json = result.toJSON() as CallToolResult;
  const schema = tool.options.outputSchema;
  if (schema === undefined || result.isError) return projected(tool, json, wire);
  return outputProblem(tool, schema, json.structuredContent).then((problem) => {
    if (problem !== undefined) {
      throw new RoundFault(
        `Tool ${tool.name} returned structured content that does not match its outputSchema: ${problem}`,
      );
    }
    return projected(tool, json, wire);
  });
}

/** JSON Schema output schemas' validators, made with a tool's first checked result. */
const outputValidators = new WeakMap<ToolDefinition, ToolInput | undefined>();

/** What is wrong with `structured` by the tool's output schema; `undefined` when nothing is. */
async function outputProblem(
  tool: ToolDefinition,
  schema: NonNullable<ToolDefinition['options']['outputSchema']>,
  structured: unknown,
): Promise<string | undefined> {
  if ('_zod' in schema) {
    const checked = await (schema as z.ZodType).safeParseAsync(structured);
    return checked.success ? undefined : checked.error.message;
  }
  if (!outputValidators.has(tool)) outputValidators.set(tool, toolInputOf(tool.name, schema));
  const checked = await outputValidators.get(tool)!.validate(structured);
  return checked.ok ? undefined : checked.issues.join('; ');
}

function projected(
  tool: ToolDefinition,
  json: CallToolResult,
  wire: ResultWire,
): Record<string, unknown> {
  return wire.projectToolResult(json, tool.outputJsonSchema) as unknown as Record<string, unknown>;
}

/** The parts of a tool's target that do not depend on the request. */
type ToolParts = Pick<
  RoundTarget,
  'handler' | 'check' | 'run' | 'normalise' | 'finish' | 'declaredAsks' | 'maxReasks' | 'tool'
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
      finish: (result, wire) => finishTool(tool, result as ToolResult, wire),
      declaredAsks: tool.declaredAsks,
      maxReasks: tool.options.maxReasks,
      tool,
    };
    toolParts.set(tool, parts);
  }
  return parts;
}

/**
 * The target of a `tools/call`. `capabilities` are the client's: under the `'arguments'`
 * fallback they decide which arguments stand in for answers it cannot give.
 */
export function toolTarget(
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
    finish: parts.finish,
    declaredAsks: parts.declaredAsks,
    maxReasks: parts.maxReasks,
    relayRound: tool.options.relayRound,
    tool,
  };
}
