import { Client, type ClientMode } from '@parley/client';
import { ParleyServer } from '@parley/server';
import * as z from 'zod';

export function createServer(): ParleyServer {
  const mcp = new ParleyServer({ name: 'Word Tools' });
  // #region server
  mcp.tool(
    'count_letters',
    { inputSchema: { word: z.string() }, outputSchema: z.number().int() },
    ({ word }) => word.length,
  );
  mcp.tool('shout', { inputSchema: { word: z.string() } }, ({ word }) =>
    word.toUpperCase(),
  );
  // #endregion server
  return mcp;
}

export async function showResults(mode: ClientMode): Promise<void> {
  await using client = new Client(createServer(), { mode });
  await client.connect();
  // #region results
  const count = await client.callTool<number>('count_letters', {
    word: 'parley',
  });
  console.log(count.data); // typed: number | undefined
  console.log(count.structuredContent); // as the server sent it

  const shout = await client.callTool('shout', { word: 'parley' }); // no output schema
  console.log(shout.data, shout.content);
  // #endregion results
}
