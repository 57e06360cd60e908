import { expect, test } from 'vitest';

import * as api from '../src/index.ts';

// The runtime surface of @parley/client. Adding to it is a public API change: update this list
// together with a changeset.
test('the public API is exactly this', () => {
  expect(Object.keys(api).sort()).toEqual([
    'AcceptedElicitation',
    'CancelledElicitation',
    'Client',
    'ConnectionFailedError',
    'DeclinedElicitation',
    'DpopNonceError',
    'InputHandlerError',
    'InvalidAnswerError',
    'InvalidRequestStateError',
    'ParleyError',
    'RoundsExceededError',
    'TaskCancelledError',
    'UnauthorizedError',
    'UnreadableSchemaError',
    'UnsupportedCapabilityError',
    'UnsupportedProtocolVersionError',
    'UrlElicitationRequiredError',
    'WorkloadIdentityError',
    'createOAuthProvider',
    'createWorkloadIdentityProvider',
    'describeTask',
    'explainConnectionFailure',
  ]);
});
