import { expect, test } from 'vitest';

import * as api from '../src/index.ts';

// The runtime surface of @parley/server. Adding to it is a public API change: update this list
// together with a changeset.
test('the public API is exactly this', () => {
  expect(Object.keys(api).sort()).toEqual([
    'APP_ANSWER_TOOL',
    'APP_ASK_META',
    'APP_URI',
    'AcceptedElicitation',
    'CancelledElicitation',
    'Context',
    'DeclinedElicitation',
    'EraMismatchError',
    'HOST_PROFILES',
    'InputRequiredToolResult',
    'InvalidAnswerError',
    'InvalidRequestStateError',
    'MODERN_PROTOCOL_VERSION',
    'ParleyError',
    'ParleyServer',
    'SessionClosedError',
    'TaskCancelledError',
    'ToolResult',
    'UnsupportedCapabilityError',
    'UrlElicitationRequiredError',
    'closeOnSignals',
    'createMemoryEventStore',
    'createMemorySessionStore',
    'createMemorySingleUseStore',
    'createMemoryTaskStore',
    'elicitRequest',
    'elicitUrlRequest',
    'eraOf',
    'inputRequired',
    'isModernVersion',
    'rootsRequest',
    'sampleRequest',
    'taskExpiresAt',
    'taskListOwner',
  ]);
});
