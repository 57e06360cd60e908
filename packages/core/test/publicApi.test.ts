import { expect, test } from 'vitest';

import * as core from '../src/index.ts';

// The runtime surface of @parley/core. Adding to it is a public API change: update this list
// together with a changeset.
test('the public API is exactly this', () => {
  expect(Object.keys(core).sort()).toEqual(
    [
      'AcceptedElicitation',
      'CancelledElicitation',
      'DeclinedElicitation',
      'EraMismatchError',
      'HANDSHAKE_PROTOCOL_VERSIONS',
      'INVALID_REQUEST_STATE_MESSAGE',
      'InputRequiredToolResult',
      'InvalidAnswerError',
      'InvalidInputResponsesError',
      'InvalidRequestStateError',
      'JSON_RPC_ERROR_CODES',
      'LATEST_HANDSHAKE_PROTOCOL_VERSION',
      'MODERN_PROTOCOL_VERSION',
      'MODERN_PROTOCOL_VERSIONS',
      'ParleyError',
      'RELATED_TASK_META_KEY',
      'RoundsExceededError',
      'SUPPORTED_PROTOCOL_VERSIONS',
      'SessionClosedError',
      'TASKS_EXTENSION',
      'TASK_STATUSES',
      'TaskCancelledError',
      'ToolResult',
      'UnsupportedCapabilityError',
      'UnsupportedProtocolVersionError',
      'UrlElicitationRequiredError',
      'checkOptionKeys',
      'clientFeatureOf',
      'declaresTasksExtension',
      'eraOf',
      'fromJsonRpcError',
      'inputRequired',
      'isCreateTaskResult',
      'isInputRequiredResult',
      'isHandshakeCreateTaskResult',
      'isModernVersion',
      'isProtocolVersion',
      'isSupportedVersion',
      'isTaskStatus',
      'isTerminalTaskStatus',
      'missingCapabilities',
      'optionKeys',
      'requiredCapabilities',
      'supportsRequest',
      'tasksRequiredCapabilities',
      'toJsonRpcError',
    ].sort(),
  );
});
