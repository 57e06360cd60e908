// #region client
import { Client } from '@parley/client';

// npx tsx client.ts [url] [--handshake]
const url =
  process.argv.find((arg) => arg.startsWith('http')) ??
  'http://127.0.0.1:3000/mcp';
const mode = process.argv.includes('--handshake') ? 'handshake' : 'auto';

await using client = new Client(url, {
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
// #endregion client
