/**
 * The public API of @parley/client. Everything exported here is public and versioned: add to it
 * deliberately, with a changeset.
 */

export { Client } from './client.ts';
export { explainConnectionFailure } from './connectionFailure.ts';
export { describeTask } from './tasks/describeTask.ts';
export type { ConnectionFailureOptions } from './connectionFailure.ts';
export { ConnectionFailedError, InputHandlerError, UnreadableSchemaError } from './errors.ts';
export { createOAuthProvider } from './http/oauthProvider.ts';
export type { OAuthProviderOptions } from './http/oauthProvider.ts';
export { createWorkloadIdentityProvider } from './http/workloadIdentity.ts';
export type { WorkloadIdentityOptions } from './http/workloadIdentity.ts';
export type { DpopOption } from './http/dpop.ts';
export { DpopNonceError, WorkloadIdentityError } from './http/authErrors.ts';
export type { DpopNonceErrorData, WorkloadIdentityErrorData } from './http/authErrors.ts';
export type {
  ConnectionFailedErrorData,
  InputHandlerErrorData,
  InputHandlerName,
  UnreadableSchemaErrorData,
} from './errors.ts';
export type {
  AuthorizationResponse,
  BearerToken,
  CallInfo,
  ClientAuth,
  CallMethod,
  CallOptions,
  CallProgress,
  ClientMode,
  ClientOptions,
  ClientTarget,
  ClientTelemetryOptions,
  ElicitationAnswer,
  ElicitationHandler,
  InProcessServer,
  ListChangedKind,
  InputContext,
  OAuthAuth,
  RootsProvider,
  RoundContinuation,
  RoundEvent,
  SamplingHandler,
  SingleRound,
  SingleRoundOptions,
  StdioServerCommand,
  TaskHandle,
  TaskSnapshot,
  ToolCallResult,
} from './types.ts';
export type { Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/client';
// The SDK's OAuth vocabulary, which `auth.oauth` speaks.
export { UnauthorizedError } from '@modelcontextprotocol/client';
export type { FetchLike, OAuthClientProvider } from '@modelcontextprotocol/client';

// What a host needs from @parley/core and @parley/schema, so one import serves a client.
export {
  AcceptedElicitation,
  CancelledElicitation,
  DeclinedElicitation,
  InvalidAnswerError,
  InvalidRequestStateError,
  ParleyError,
  RoundsExceededError,
  TaskCancelledError,
  UnsupportedCapabilityError,
  UnsupportedProtocolVersionError,
  UrlElicitationRequiredError,
} from '@parley/core';
export type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitFormParams,
  ElicitResult,
  ElicitUrlParams,
  Era,
  GetPromptResult,
  InputRequests,
  InputResponses,
  ReadResourceResult,
  Root,
  SamplingMessage,
  Task,
  TaskStatus,
} from '@parley/core';
export type { FieldDescriptor, ResponseBuilder } from '@parley/schema';
