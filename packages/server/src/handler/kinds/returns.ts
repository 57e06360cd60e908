import type {
  ContentBlock,
  GetPromptResult,
  InputRequiredResult,
  Meta,
  PromptMessage,
  ReadResourceResult,
  ToolResult,
} from '@parley/core';

/**
 * What handlers may return, by kind: what authors naturally return (a string, content blocks, a
 * plain object, a full result, or an ask), which `tool.ts`, `prompt.ts` and `resource.ts` turn
 * into the result MCP sends.
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
