import {
  ProtocolError,
  ProtocolErrorCode,
  fromJsonSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/client';

/**
 * Output schemas on modern connections. The SDK's `callTool` checks a listed tool's output
 * schema against whatever the request resolves to, and with `allowInputRequired` that includes
 * every ask, which has no `structuredContent`: the SDK would refuse each ask of a tool with an
 * output schema. So Parley hands `callTool` the listed definition without its output schema
 * (SEP-2243 header mirroring still reads the input schema from it) and checks the final result
 * itself, with the SDK's own validator (`fromJsonSchema`) and the SDK's wording.
 */

type Checker = ReturnType<typeof fromJsonSchema>;

const checkers = new WeakMap<Tool, Checker>();

/** The definition to send with each leg: the listing minus its output schema. */
export function withoutOutputSchema(tool: Tool): Tool {
  const { outputSchema: _omitted, ...rest } = tool;
  return rest as Tool;
}

/**
 * Check a final result against the tool's listed output schema, as the SDK would have: an
 * error result is not checked, any other result must carry conforming `structuredContent`.
 *
 * @throws {ProtocolError} `InvalidParams` for an invalid schema or non-conforming content,
 *   `InvalidRequest` when the content is missing.
 */
export async function checkStructuredOutput(tool: Tool, result: CallToolResult): Promise<void> {
  if (tool.outputSchema === undefined || result.isError === true) return;
  if (result.structuredContent === undefined) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `Tool ${tool.name} has an output schema but did not return structured content`,
    );
  }
  let checker = checkers.get(tool);
  if (checker === undefined) {
    try {
      checker = fromJsonSchema(tool.outputSchema as Parameters<typeof fromJsonSchema>[0]);
    } catch (error) {
      const why = (error instanceof Error ? error.message : String(error)).slice(0, 200);
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Tool '${tool.name}' has an invalid outputSchema: ${why}`,
      );
    }
    checkers.set(tool, checker);
  }
  const checked = await checker['~standard'].validate(result.structuredContent);
  if (checked.issues !== undefined) {
    const why = checked.issues.map((issue) => issue.message).join('; ');
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Structured content does not match the tool's output schema: ${why}`,
    );
  }
}
