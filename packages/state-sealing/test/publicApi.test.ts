import { expect, test } from 'vitest';

import * as api from '../src/index.ts';
import * as internal from '../src/internal.ts';

// The runtime surface of @parley/state-sealing. Adding to it is a public API change: update this list
// together with a changeset.
test('the public API is exactly this', () => {
  expect(Object.keys(api).sort()).toEqual(
    [
      'RequestStateError',
      'createMemoryReplayStore',
      'createRequestStateSealer',
      'generateKey',
    ].sort(),
  );
});

test('a sealer has exactly seal, open, openToken and bind', () => {
  const sealer = api.createRequestStateSealer({ audience: 'booking-server' });
  expect(Object.keys(sealer).sort()).toEqual(['bind', 'open', 'openToken', 'seal']);
});

// Not public: @parley/server's door to the answers at once (not covered by semver).
test('@parley/state-sealing/internal is exactly this', () => {
  expect(Object.keys(internal).sort()).toEqual(['openAtOnce', 'openTokenAtOnce', 'sealAtOnce']);
});
