import { expect, test } from 'vitest';

import { Client } from '@parley/client';

import { createServer } from '../elicitation/eraErrors.ts';

// #region eraGate
test('the guard-pattern tool is refused on a handshake connection, with a message that says why', async () => {
  const server = createServer({ onError: () => {} }); // keep the expected error out of stderr
  await using client = new Client(server, {
    mode: 'handshake',
    elicitationHandler: () => ({ action: 'decline' }),
  });
  await client.connect();

  await expect(client.callTool('book_flight')).rejects.toThrow(
    /only exists at MCP 2026-07-28; this connection negotiated '2025-11-25'/,
  );
});
// #endregion eraGate
