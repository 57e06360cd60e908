import { Client, type ClientTarget } from '@parley/client';

export async function showModes(server: ClientTarget): Promise<void> {
  // #region modes
  for (const mode of ['auto', 'modern', 'handshake'] as const) {
    await using client = new Client(server, { mode });
    await client.connect();
    console.log(`${mode}: ${client.era} era, ${client.protocolVersion}`);
  }
  // #endregion modes
}
