// #region client
import { Client, type ClientMode, type ClientTarget } from '@parley/client';

export async function main(
  target: ClientTarget = 'http://127.0.0.1:3000/mcp',
  mode: ClientMode = 'auto',
): Promise<void> {
  await using client = new Client(target, {
    mode,
    // Called for every question the server asks, in either era.
    elicitationHandler: async (message) => {
      console.log(`Server asks: ${message}`);
      return 'Ada';
    },
  });
  await client.connect();
  console.log(
    `Connected: ${client.era} era, protocol ${client.protocolVersion}`,
  );

  const result = await client.callTool('greet');
  for (const block of result.content)
    if (block.type === 'text') console.log(block.text);
}
// #endregion client
