/**
 * The names spans and metrics are recorded under: OpenTelemetry's semantic conventions for MCP
 * (`mcp.*`, `gen_ai.*`, `jsonrpc.*`, status and error) where they have a name for it, and
 * Parley's own under `parley.*`.
 */

export const ATTR = {
  method: 'mcp.method.name',
  sessionId: 'mcp.session.id',
  protocolVersion: 'mcp.protocol.version',
  resourceUri: 'mcp.resource.uri',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  operationName: 'gen_ai.operation.name',
  requestId: 'jsonrpc.request.id',
  jsonRpcVersion: 'jsonrpc.protocol.version',
  statusCode: 'rpc.response.status_code',
  errorType: 'error.type',
  networkTransport: 'network.transport',
  era: 'parley.era',
  flowId: 'parley.flow.id',
  round: 'parley.round',
  asks: 'parley.asks',
  accepted: 'parley.answers.accepted',
  declined: 'parley.answers.declined',
  cancelled: 'parley.answers.cancelled',
  reasks: 'parley.reasks',
  outcome: 'parley.outcome',
  stateBytes: 'parley.state.bytes',
  action: 'parley.answer.action',
  answerPrefix: 'parley.answer.',
  argumentPrefix: 'parley.argument.',
} as const;

/** How a request ended, as `parley.outcome` says it. */
export type Outcome =
  /** A final result. */
  | 'result'
  /** A tool result with `isError`: the tool failed, the request did not. */
  | 'tool_error'
  /** The round asked (modern era: `input_required`, sealed state). */
  | 'input_required'
  /** A JSON-RPC error. */
  | 'error';

export const METRIC = {
  operationDuration: 'mcp.server.operation.duration',
  flowDuration: 'parley.flow.duration',
  flowRounds: 'parley.flow.rounds',
  answerTime: 'parley.answer.duration',
  reasks: 'parley.reasks',
  answers: 'parley.answers',
  singleUseRefusals: 'parley.single_use.refusals',
  stateSize: 'parley.state.size',
} as const;
