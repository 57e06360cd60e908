import { hasBrand, stampBrands } from './brands.ts';
import type { InputRequests, InputRequiredResult } from './inputRequired.ts';
import type { ContentBlock, Meta } from './wireTypes.ts';

/** The wire shape of a final `tools/call` result. */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Meta;
}

/** What a {@link ToolResult} is built from. */
export interface ToolResultInit {
  content?: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Meta;
}

/**
 * The result of one round of a tool call, as middleware sees it. A final round is a plain
 * `ToolResult`; an asking round is an {@link InputRequiredToolResult}, so
 * `result instanceof InputRequiredToolResult` tells the two apart, across the ESM and CJS copies
 * of this package too (the classes are branded).
 */
export class ToolResult {
  static readonly brand: string = '@parley/core:ToolResult';
  readonly content: readonly ContentBlock[];
  readonly structuredContent: Record<string, unknown> | undefined;
  readonly isError: boolean;
  readonly meta: Meta | undefined;

  constructor(init: ToolResultInit = {}) {
    this.content = init.content ?? [];
    this.structuredContent = init.structuredContent;
    this.isError = init.isError ?? false;
    this.meta = init._meta;
    stampBrands(this, new.target);
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(this, value);
  }

  /** The wire form of this result. */
  toJSON(): CallToolResult | InputRequiredResult {
    return {
      content: [...this.content],
      ...(this.structuredContent !== undefined
        ? { structuredContent: this.structuredContent }
        : {}),
      ...(this.isError ? { isError: true } : {}),
      ...(this.meta !== undefined ? { _meta: this.meta } : {}),
    };
  }
}

/** A round that asks the client for input instead of finishing the call. */
export class InputRequiredToolResult extends ToolResult {
  static override readonly brand: string = '@parley/core:InputRequiredToolResult';
  readonly inputRequests: InputRequests | undefined;
  readonly requestState: string | undefined;

  constructor(result: InputRequiredResult) {
    super(result._meta !== undefined ? { _meta: result._meta } : {});
    this.inputRequests = result.inputRequests;
    this.requestState = result.requestState;
  }

  /** The keys of the requests this round asks, in order. */
  get askedKeys(): string[] {
    return this.inputRequests === undefined ? [] : Object.keys(this.inputRequests);
  }

  override toJSON(): InputRequiredResult {
    return {
      resultType: 'input_required',
      ...(this.inputRequests !== undefined ? { inputRequests: this.inputRequests } : {}),
      ...(this.requestState !== undefined ? { requestState: this.requestState } : {}),
      ...(this.meta !== undefined ? { _meta: this.meta } : {}),
    };
  }
}
