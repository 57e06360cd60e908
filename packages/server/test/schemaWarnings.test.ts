import { describe, expect, test } from 'vitest';
import * as z from 'zod';

import { ParleyServer, elicitRequest, inputRequired } from '../src/index.ts';
import { connectSdkClient } from './helpers/sdkClients.ts';
import { rawModernCall } from './helpers/rawModern.ts';

/** Schemas are checked and linted when asks are registered, and once when first sent. */

function collectingServer() {
  const warnings: string[] = [];
  const mcp = new ParleyServer({
    name: 'lint',
    onWarning: (message) => warnings.push(message),
    onError: () => {},
  });
  return { mcp, warnings };
}

describe('declared asks', () => {
  test('are linted at registration, before any call', () => {
    const { mcp, warnings } = collectingServer();
    mcp.tool(
      'login',
      { asks: { credentials: z.object({ username: z.string(), password: z.string() }) } },
      () => 'ok',
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Tool 'login', ask 'credentials': .*password/i);
  });

  test('a schema the spec cannot express fails registration, naming the handler and the ask', () => {
    const { mcp } = collectingServer();
    expect(() =>
      mcp.prompt(
        'address',
        { asks: { home: z.object({ street: z.object({ line: z.string() }) }) } },
        () => 'x',
      ),
    ).toThrow(/^prompt 'address': ask 'home': .*street/);
  });

  test('a clean schema gives no warning', () => {
    const { mcp, warnings } = collectingServer();
    mcp.resource(
      'data://x',
      { name: 'x', asks: { pick: elicitRequest('Pick', ['a', 'b'], { responseTitle: 'Choice' }) } },
      () => 'x',
    );
    expect(warnings).toEqual([]);
  });
});

describe('asks first sent', () => {
  test('are linted once per handler and schema, in both eras', async () => {
    const { mcp, warnings } = collectingServer();
    mcp.tool('guard', () =>
      inputRequired({ inputRequests: { name: elicitRequest('Name?', String) } }),
    );
    mcp.tool('push', async (_args, ctx) => (await ctx.elicit('Name?', String)).action);

    await rawModernCall(mcp, { name: 'guard' });
    await rawModernCall(mcp, { name: 'guard' });
    expect(warnings).toEqual([expect.stringMatching(/^Tool 'guard', ask 'name': /)]);

    const connection = await connectSdkClient({
      era: 'handshake',
      via: 'in-process',
      server: mcp,
      answers: { elicit: () => ({ action: 'decline' }) },
    });
    await connection.client.callTool({ name: 'push', arguments: {} });
    await connection.client.callTool({ name: 'push', arguments: {} });
    await connection.close();
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatch(/^Tool 'push': /);
  });
});
