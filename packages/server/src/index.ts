/**
 * The public API of @parley/server. Everything exported here is public and versioned: add to it
 * deliberately, with a changeset.
 *
 * Handlers ask with `ctx.ask(key, ask)`, `ctx.askAll(asks)` and `ctx.remember(key, fn)` on the
 * {@link Context}, with asks built by `elicitRequest`, `elicitUrlRequest`, `sampleRequest` and
 * `rootsRequest`: written once, they work on both eras. The per-era layer beneath them
 * (`ctx.elicit`, and the guard pattern: `inputRequired(...)`, `ctx.answer`, `ctx.requestState`)
 * is exported too, for handlers that want strict per-era control.
 */

export { ParleyServer } from './facade/parleyServer.ts';
export type { HttpAuthOptions } from './http/bearerAuth.ts';
/** The principal `http.auth.verifyToken` returns (the SDK's shape). */
export type { AuthInfo } from '@modelcontextprotocol/server';
export type { FetchOptions, HttpOptions } from './http/httpOptions.ts';
export type { NodeHandler } from './http/nodeHandler.ts';
export type { CloseOptions } from './http/nodeListener.ts';
export type { TelemetryOptions, TelemetryRecordOptions } from './telemetry/options.ts';
export { closeOnSignals } from './facade/shutdown.ts';
export type { CloseOnSignalsOptions } from './facade/shutdown.ts';
export { createMemoryEventStore } from './http/eventStore.ts';
export type { EventId, EventStore, MemoryEventStoreOptions, StreamId } from './http/eventStore.ts';
export { createMemorySessionStore } from './http/sessionStore.ts';
export type { MemorySessionStoreOptions, SessionStore } from './http/sessionStore.ts';
export type { HttpRunOptions } from './http/runHttp.ts';
export type {
  ParleyServerOptions,
  RequestStateSecurity,
  RunOptions,
  RunningServer,
  StdioRunOptions,
  TasksOptions,
} from './facade/options.ts';
export type { CancelTimer, Clock } from './tasks/clock.ts';
export type {
  TaskStartMode,
  TaskSupport,
  ToolTaskOption,
  ToolTaskOptions,
} from './handler/taskOptions.ts';
export type { ArgumentLimits } from './round/limits.ts';
export type { ListKind } from './runtime/changes.ts';
export type { JsonSchemaObject, ToolInputSchema } from './handler/parameters.ts';

export { createMemorySingleUseStore } from './flow/singleUse.ts';
export type {
  MemorySingleUseStoreOptions,
  SingleUseBegin,
  SingleUseStore,
} from './flow/singleUse.ts';

export { createMemoryTaskStore, taskListOwner } from './tasks/taskStore.ts';
export type { MemoryTaskStoreOptions, TaskStore } from './tasks/taskStore.ts';
export { taskExpiresAt } from './tasks/taskRecord.ts';
export type {
  DeliveredAnswer,
  PendingInput,
  TaskLease,
  TaskProgress,
  TaskRecord,
  TaskScope,
} from './tasks/taskRecord.ts';

export { Context } from './handler/context.ts';
export type {
  ElicitOptions,
  LogLevel,
  RequestContext,
  UrlElicitation,
  WaitOptions,
} from './handler/contextTypes.ts';

export { elicitRequest, elicitUrlRequest, rootsRequest, sampleRequest } from './ask/builders.ts';
export type {
  AnswerOf,
  AnswersOf,
  AskOptions,
  FormAskOptions,
  SampleInit,
  SampleOptions,
  TypedElicitRequest,
  UrlElicitRequest,
} from './ask/builders.ts';

export type {
  AskFallback,
  AskFallbackFunction,
  UnanswerableAsk,
} from './handler/fallback/policy.ts';
export type { DeclaredAsk, WarningReporter, WarningSource } from './ask/schemaWarnings.ts';
export { APP_URI } from './ask/askRoutes.ts';
export type { AskRoute } from './ask/askRoutes.ts';
export { HOST_PROFILES } from './ask/hostProfiles.ts';
export type { FieldKind, HostProfile } from './ask/hostProfiles.ts';
export { APP_ANSWER_TOOL, APP_ASK_META } from '@parley/core';
export type { AppAsk } from '@parley/core';
export type { ArgsOf, ParameterSchema, PromptArgument } from './handler/parameters.ts';
export type {
  Completer,
  PromptHandler,
  PromptOptions,
  ResourceHandler,
  ResourceOptions,
  ResourceTemplateHandler,
  ToolAnnotations,
  ToolHandler,
  ToolOptions,
} from './handler/definitions.ts';
export type { PromptReturn, ResourceReturn, ToolReturn } from './handler/kinds/returns.ts';
export type { RelayedRound, RoundRelay } from './handler/relayRound.ts';

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
  TaskCancelledError,
  ToolResult,
  UnsupportedCapabilityError,
  UrlElicitationRequiredError,
  eraOf,
  inputRequired,
  isModernVersion,
} from '@parley/core';
export type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitationResult,
  Era,
  Flow,
  HandlerInfo,
  Implementation,
  InputRequest,
  InputRequiredResult,
  InputRequests,
  InputResponses,
  ListRootsRequest,
  Root,
  SessionCloseReason,
  SessionClosedData,
} from '@parley/core';
