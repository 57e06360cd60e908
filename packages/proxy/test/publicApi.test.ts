import { expect, test } from 'vitest';

import * as api from '../src/index.ts';

// The runtime surface of @parley/proxy. Adding to it is a public API change: update this list
// together with a changeset.
test('the public API is exactly this', () => {
  expect(Object.keys(api).sort()).toEqual(['ParleyProxy']);
});
