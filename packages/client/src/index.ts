/**
 * The public API of @parley/client. Everything exported here is public and versioned: add to it
 * deliberately, with a changeset.
 */

export { Client } from './client.ts';
export { InputHandlerError } from './errors.ts';
export type { InputHandlerErrorData, InputHandlerName } from './errors.ts';
export type {
  CallInfo,
  CallMethod,
  CallOptions,
  ClientMode,
  ClientOptions,
  ClientTarget,
  ElicitationAnswer,
  ElicitationHandler,
  InProcessServer,
  InputContext,
  RootsProvider,
  RoundEvent,
  SamplingHandler,
  StdioServerCommand,
  ToolCallResult,
} from './types.ts';
export type { Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/client';

// What a host needs from @parley/core and @parley/schema, so one import serves a client.
export {
  AcceptedElicitation,
  CancelledElicitation,
  DeclinedElicitation,
  InvalidAnswerError,
  InvalidRequestStateError,
  ParleyError,
  RoundsExceededError,
  UnsupportedCapabilityError,
  UnsupportedProtocolVersionError,
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
} from '@parley/core';
export type { FieldDescriptor, ResponseBuilder } from '@parley/schema';
