import {
  InputRequiredToolResult,
  ToolResult,
  isInputRequiredResult,
  type ContentBlock,
  type GetPromptResult,
  type InputRequiredResult,
  type Meta,
  type PromptMessage,
  type ReadResourceResult,
} from '@parley/core';

/**
 * Turning what a handler naturally returns into the result MCP sends. Authors return a string,
 * content blocks, a plain object (structured content), a full result, or an ask.
 */

/** What a tool handler may return. */
export type ToolReturn =
  | string
  | number
  | boolean
  | ContentBlock
  | ContentBlock[]
  | ToolResult
  | InputRequiredResult
  | {
      content: ContentBlock[];
      structuredContent?: Record<string, unknown>;
      isError?: boolean;
      _meta?: Meta;
    }
  | Record<string, unknown>
  | unknown[]
  | null
  | undefined
  | void;

/** What a prompt handler may return. */
export type PromptReturn = string | PromptMessage[] | GetPromptResult | InputRequiredResult;

/** What a resource handler may return. */
export type ResourceReturn =
  string | Uint8Array | ReadResourceResult | Record<string, unknown> | InputRequiredResult;

const CONTENT_TYPES: ReadonlySet<unknown> = new Set([
  'text',
  'image',
  'audio',
  'resource_link',
  'resource',
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isContentBlock(value: unknown): value is ContentBlock {
  return isRecord(value) && CONTENT_TYPES.has(value.type);
}

function text(value: string): ContentBlock {
  return { type: 'text', text: value };
}

/**
 * A tool's return value as one round's result. With an output schema, a returned value is the
 * structured content (scalars included) and its JSON is also sent as text for older clients.
 */
export function toToolResult(value: unknown, hasOutputSchema: boolean): ToolResult {
  if (value instanceof ToolResult) return value;
  if (isInputRequiredResult(value)) return new InputRequiredToolResult(value);
  if (value === undefined || value === null) return new ToolResult();
  if (isRecord(value) && Array.isArray(value.content) && value.content.every(isContentBlock)) {
    return new ToolResult(value as ConstructorParameters<typeof ToolResult>[0]);
  }
  if (!hasOutputSchema) {
    if (typeof value === 'string') return new ToolResult({ content: [text(value)] });
    if (isContentBlock(value)) return new ToolResult({ content: [value] });
    if (Array.isArray(value) && value.length > 0 && value.every(isContentBlock)) {
      return new ToolResult({ content: value });
    }
    if (typeof value === 'number' || typeof value === 'boolean') {
      return new ToolResult({ content: [text(String(value))] });
    }
  }
  return new ToolResult({
    content: [text(typeof value === 'string' ? value : JSON.stringify(value))],
    structuredContent: value as Record<string, unknown>,
  });
}

/** A prompt's return value as a `prompts/get` result (or an ask). */
export function toPromptResult(value: PromptReturn): GetPromptResult | InputRequiredResult {
  if (isInputRequiredResult(value)) return value;
  if (typeof value === 'string') return { messages: [{ role: 'user', content: text(value) }] };
  if (Array.isArray(value)) return { messages: value };
  if (isRecord(value) && Array.isArray(value.messages)) return value;
  throw new TypeError(
    'A prompt handler must return a string, messages, a GetPromptResult or inputRequired(...).',
  );
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** A resource's return value as a `resources/read` result (or an ask). */
export function toResourceResult(
  value: ResourceReturn,
  uri: string,
  mimeType: string | undefined,
): ReadResourceResult | InputRequiredResult {
  if (isInputRequiredResult(value)) return value;
  if (typeof value === 'string')
    return { contents: [{ uri, mimeType: mimeType ?? 'text/plain', text: value }] };
  if (value instanceof Uint8Array) {
    return {
      contents: [{ uri, mimeType: mimeType ?? 'application/octet-stream', blob: base64(value) }],
    };
  }
  if (isRecord(value) && Array.isArray(value.contents))
    return value as unknown as ReadResourceResult;
  return {
    contents: [{ uri, mimeType: mimeType ?? 'application/json', text: JSON.stringify(value) }],
  };
}
