// #region client
import { Client, type ClientTarget } from '@parley/client';

export async function bookFlight(server: ClientTarget): Promise<void> {
  await using client = new Client(server, {
    mode: 'auto', // the modern protocol when the server offers it
    elicitationHandler: async (message, responseType) => {
      if (message.includes('Where'))
        return responseType({ destination: 'Paris' });
      return responseType({ date: '2026-08-01' });
    },
  });
  await client.connect();

  const result = await client.callTool<string>('book_flight', {});
  console.log(result.data);
}
// #endregion client
