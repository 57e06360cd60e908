/**
 * The public API of @parley/server. Everything exported here is public and versioned: add to it
 * deliberately, with a changeset.
 */

export { ParleyServer } from './parleyServer.ts';
export type { HttpAuthOptions } from './http/bearerAuth.ts';
/** The principal `http.auth.verifyToken` returns (the SDK's shape). */
export type { AuthInfo } from '@modelcontextprotocol/server';
export type { FetchOptions, HttpOptions } from './http/httpEndpoint.ts';
export type { NodeHandler } from './http/nodeHandler.ts';
export type { CloseOptions } from './http/nodeListener.ts';
export { closeOnSignals } from './shutdown.ts';
export type { CloseOnSignalsOptions } from './shutdown.ts';
export { createMemoryEventStore } from './http/eventStore.ts';
export type { EventId, EventStore, MemoryEventStoreOptions, StreamId } from './http/eventStore.ts';
export type {
  HttpRunOptions,
  ParleyServerOptions,
  RequestStateSecurity,
  RunOptions,
  RunningServer,
  StdioRunOptions,
} from './options.ts';
export type { ArgumentLimits } from './round/limits.ts';
export type { ListKind } from './notifications.ts';
export type { Completer } from './completion.ts';
export type { JsonSchemaObject, ToolInputSchema } from './toolInput.ts';

export { createMemorySingleUseStore } from './round/singleUse.ts';
export type {
  MemorySingleUseStoreOptions,
  SingleUseBegin,
  SingleUseStore,
} from './round/singleUse.ts';

export { Context } from './context.ts';
export type {
  ElicitOptions,
  Flow,
  HandlerTarget,
  LogLevel,
  RequestContext,
  UrlElicitation,
} from './context.ts';

export { elicitRequest, elicitUrlRequest, rootsRequest, sampleRequest } from './asks.ts';
export type { AskOptions, SampleInit, TypedElicitRequest } from './asks.ts';

export type { DeclaredAsk, WarningReporter, WarningSource } from './schemaWarnings.ts';
export type {
  ArgsOf,
  ParameterSchema,
  PromptArgument,
  PromptHandler,
  PromptOptions,
  ResourceHandler,
  StateOf,
  StateSchema,
  ResourceOptions,
  ResourceTemplateHandler,
  ToolAnnotations,
  ToolHandler,
  ToolOptions,
} from './definitions.ts';
export type { PromptReturn, ResourceReturn, ToolReturn } from './results.ts';

// What an author needs from @parley/core, so one import serves a server.
export {
  AcceptedElicitation,
  CancelledElicitation,
  DeclinedElicitation,
  EraMismatchError,
  InputRequiredToolResult,
  InvalidAnswerError,
  InvalidRequestStateError,
  MODERN_PROTOCOL_VERSION,
  ParleyError,
  SessionClosedError,
  ToolResult,
  UnsupportedCapabilityError,
  UrlElicitationRequiredError,
  eraOf,
  inputRequired,
  isModernVersion,
} from '@parley/core';
export type {
  ElicitationResult,
  Era,
  InputRequiredResult,
  InputRequests,
  InputResponses,
  SessionCloseReason,
  SessionClosedData,
} from '@parley/core';
