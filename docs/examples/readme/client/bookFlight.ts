import { Client } from '@parley/client';

// A server whose book_flight asks where, then when: npx tsx bookFlight.ts <url>
const url = process.argv[2] ?? 'http://127.0.0.1:3000/mcp';

await using client = new Client(url, {
  elicitationHandler: async (message, responseType) =>
    message.includes('Where')
      ? responseType({ destination: 'Paris' })
      : responseType({ date: '2026-08-01' }),
});
await client.connect();
const result = await client.callTool('book_flight', {});
console.log(result.data); // Booked a flight to Paris on 2026-08-01
