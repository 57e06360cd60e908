import {
  Client,
  type ClientMode,
  type InProcessServer,
} from '@parley/client';

export async function traceRounds(
  server: InProcessServer,
  mode: ClientMode,
): Promise<void> {
  // #region onRound
  await using client = new Client(server, {
    mode,
    elicitationHandler: (message, responseType) =>
      message.includes('Where')
        ? responseType({ destination: 'Paris' })
        : responseType({ date: '2026-08-01' }),
    onRound: (event) => {
      const asked = Object.keys(event.asked).join(', ');
      console.log(
        `${event.call.name}: round ${event.round} of at most ${event.maxRounds}, asked ${asked}`,
      );
    },
  });
  // #endregion onRound
  await client.connect();
  await client.callTool('book_flight', {}, { maxRounds: 5 });
}
