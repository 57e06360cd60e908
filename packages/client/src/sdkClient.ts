import {
  Client as McpClient,
  type ClientOptions as McpClientOptions,
  type Implementation,
} from '@modelcontextprotocol/client';

type ResolveArgs = Parameters<McpClient['_resolveNonCompleteResult']>;

/** The `input_required` result as the SDK decoded it. */
export type DecodedInputRequired = ResolveArgs[0];

/**
 * The SDK's handle on the request that got an `input_required` result: its original params and
 * options, and `retry(params, options)`, which re-issues it on a fresh JSON-RPC id through the
 * SDK's own request path (headers, envelope, result validation).
 */
export type InputRequiredFlow = ResolveArgs[1];

/** Drives one `input_required` flow to its final result. */
export type InputRequiredDriver = (
  decoded: DecodedInputRequired,
  flow: InputRequiredFlow,
) => Promise<unknown>;

/**
 * The SDK client with its multi-round driver replaced by Parley's.
 *
 * The SDK resolves every `input_required` response through this one protected extension point,
 * so overriding it keeps everything else of `callTool`, `getPrompt` and `readResource` intact:
 * SEP-2243 header mirroring, the per-request `_meta` envelope, output-schema validation of the
 * final result. What Parley adds is per-call: the round bound, `onRound`, its handlers, and
 * typed errors.
 */
export class DrivenSdkClient extends McpClient {
  readonly #drive: InputRequiredDriver;

  constructor(info: Implementation, options: McpClientOptions, drive: InputRequiredDriver) {
    super(info, options);
    this.#drive = drive;
  }

  protected override _resolveNonCompleteResult(...[decoded, flow]: ResolveArgs): Promise<unknown> {
    return this.#drive(decoded, flow);
  }
}
