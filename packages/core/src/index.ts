/**
 * The public API of @parley/core. Everything exported here is public and versioned: add to it
 * deliberately, with a changeset.
 */

export {
  HANDSHAKE_PROTOCOL_VERSIONS,
  LATEST_HANDSHAKE_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
  eraOf,
  isModernVersion,
  isProtocolVersion,
  isSupportedVersion,
} from './protocolVersions.ts';
export type { Era } from './protocolVersions.ts';

export {
  AcceptedElicitation,
  CancelledElicitation,
  DeclinedElicitation,
} from './elicitationResult.ts';
export type { ElicitationAction, ElicitationResult } from './elicitationResult.ts';

export {
  INPUT_REQUEST_METHODS,
  inputRequired,
  isInputRequestMethod,
  isInputRequiredResult,
} from './inputRequired.ts';
export type {
  InputRequest,
  InputRequests,
  InputRequiredInit,
  InputRequiredResult,
  InputResponse,
  InputResponses,
} from './inputRequired.ts';

export {
  clientFeatureOf,
  missingCapabilities,
  requiredCapabilities,
  supportsRequest,
} from './capabilities.ts';

export {
  RELATED_TASK_META_KEY,
  TASKS_EXTENSION,
  TASK_STATUSES,
  declaresTasksExtension,
  isCreateTaskResult,
  isHandshakeCreateTaskResult,
  isTaskStatus,
  isTerminalTaskStatus,
  tasksRequiredCapabilities,
} from './tasks.ts';
export type {
  CreateTaskResult,
  DetailedTask,
  HandshakeTask,
  HandshakeTaskRequest,
  Task,
  TaskStatus,
} from './tasks.ts';

export { handlerLabel } from './handlers.ts';
export type { Flow, HandlerInfo, HandlerKind } from './handlers.ts';

export { checkOptionKeys, optionKeys } from './optionKeys.ts';

export { isRecord } from './isRecord.ts';
export { APP_ANSWER_TOOL, APP_ASK_META, appAskOf } from './appAsk.ts';
export type { AppAsk } from './appAsk.ts';
export { ASK_KEY_META, askKeyOf } from './askKeyMeta.ts';
export { canonicalJson } from './canonicalJson.ts';
export type { CanonicalJsonOptions } from './canonicalJson.ts';
export type { AllKeysOf, OptionKeys } from './optionKeys.ts';

export { InputRequiredToolResult, ToolResult } from './toolResult.ts';
export type { CallToolResult, ToolResultInit } from './toolResult.ts';

export { ParleyError } from './errors/parleyError.ts';
export type { ParleyErrorCode, ParleyErrorOptions } from './errors/parleyError.ts';
export {
  EraMismatchError,
  InvalidAnswerError,
  InvalidInputResponsesError,
  InvalidRequestStateError,
  RoundsExceededError,
  SessionClosedError,
  TaskCancelledError,
  UnsupportedCapabilityError,
  UnsupportedProtocolVersionError,
  UrlElicitationRequiredError,
} from './errors/errorClasses.ts';
export type {
  ClientFeature,
  EraMismatchData,
  InvalidAnswerData,
  InvalidInputResponsesData,
  InvalidRequestStateData,
  RequiredUrlElicitation,
  RoundsExceededData,
  SessionCloseReason,
  SessionClosedData,
  TaskCancelledData,
  UnsupportedCapabilityData,
  UnsupportedProtocolVersionData,
  UrlElicitationRequiredData,
} from './errors/errorClasses.ts';
export {
  JSON_RPC_ERRORS,
  JSON_RPC_ERROR_CODES,
  httpStatusOfAnswer,
  jsonRpcError,
} from './errors/codes.ts';
export type { JsonRpcErrorKind, JsonRpcErrorName, JsonRpcErrorObject } from './errors/codes.ts';
export {
  INVALID_REQUEST_STATE_MESSAGE,
  fromJsonRpcError,
  toJsonRpcError,
} from './errors/jsonRpc.ts';
export type { ToJsonRpcErrorOptions } from './errors/jsonRpc.ts';

export type {
  AudioContent,
  BlobResourceContents,
  BooleanFieldSchema,
  ClientCapabilities,
  ContentAnnotations,
  ContentBlock,
  CreateMessageParams,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitContentValue,
  ElicitFormParams,
  ElicitRequest,
  ElicitResult,
  ElicitUrlParams,
  ElicitationSchema,
  EmbeddedResource,
  GetPromptResult,
  ImageContent,
  Implementation,
  JsonObject,
  JsonValue,
  EnumNamesSingleSelectFieldSchema,
  ListRootsRequest,
  ListRootsResult,
  Meta,
  ModelPreferences,
  NumberFieldSchema,
  PrimitiveFieldSchema,
  PromptMessage,
  ReadResourceResult,
  ResourceLink,
  Root,
  SamplingContent,
  SamplingMessage,
  StringFieldSchema,
  TextContent,
  TextResourceContents,
  TitledMultiSelectFieldSchema,
  TitledSingleSelectFieldSchema,
  UntitledMultiSelectFieldSchema,
  UntitledSingleSelectFieldSchema,
} from './wireTypes.ts';
