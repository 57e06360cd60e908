import { expect, test } from 'vitest';

import * as api from '../src/index.ts';

// The runtime surface of @parley/schema. Adding to it is a public API change: update this list
// together with a changeset.
test('the public API is exactly this', () => {
  expect(Object.keys(api).sort()).toEqual(
    [
      'compileResponseType',
      'createResponseType',
      'describeFields',
      'fieldLabel',
      'fieldValueProblem',
      'readReask',
      'reaskMessage',
      'REASK_SENTENCE',
      'lintElicitationSchema',
      'standardJsonSchema',
      'validateElicitationSchema',
    ].sort(),
  );
});
