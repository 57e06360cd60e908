import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk-v1/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk-v1/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk-v1/types.js';
import { afterEach, expect, test } from 'vitest';

import { tsNodeCommand } from './helpers/sdkClients.ts';

/** An old client still works: the v1 SDK (1.x) answering `ctx.elicit` over stdio. */

const seedServerMain = fileURLToPath(new URL('./fixtures/seedServerMain.ts', import.meta.url));
let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  client = undefined;
});

test('a v1 SDK client answers ctx.elicit over stdio', async () => {
  client = new Client(
    { name: 'v1-client', version: '1.0.0' },
    { capabilities: { elicitation: {} } },
  );
  const messages: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    messages.push(request.params.message);
    return { action: 'accept', content: { name: 'Linus', age: 54 } };
  });
  const { command, args } = tsNodeCommand(seedServerMain);
  await client.connect(new StdioClientTransport({ command, args, stderr: 'inherit' }));

  expect(client.getServerVersion()).toEqual({ name: 'Elicitation Server', version: '1.0.0' });
  const result = await client.callTool({ name: 'collect_user_info', arguments: {} });
  expect(messages).toEqual(['Please provide your information']);
  expect(result.content).toEqual([{ type: 'text', text: 'Hello Linus, you are 54 years old' }]);
});

test('a v1 SDK client without elicitation gets the clear capability error', async () => {
  client = new Client({ name: 'v1-client', version: '1.0.0' }, { capabilities: {} });
  const { command, args } = tsNodeCommand(seedServerMain);
  await client.connect(new StdioClientTransport({ command, args, stderr: 'inherit' }));
  const result = await client.callTool({ name: 'collect_user_info', arguments: {} });
  expect(result.isError).toBe(true);
  expect(result.content).toEqual([
    { type: 'text', text: 'elicitation not supported by this client' },
  ]);
});
