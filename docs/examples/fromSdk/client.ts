// #region client
import {
  Client,
  StreamableHTTPClientTransport,
  type ElicitResult,
} from '@modelcontextprotocol/client';

/** The raw SDK v2 client: one handler for every elicitation/create, in both eras. */
export async function bookFlight(url: URL): Promise<void> {
  const client = new Client(
    { name: 'sdk-client', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      // The modern protocol when the server offers it, else the handshake era.
      versionNegotiation: { mode: 'auto' },
    },
  );
  client.setRequestHandler(
    'elicitation/create',
    async (request): Promise<ElicitResult> => {
      if (request.params.mode === 'url') return { action: 'decline' };
      // The schema is JSON Schema: build the content it asks for by hand.
      if (request.params.message.includes('Where'))
        return { action: 'accept', content: { destination: 'Paris' } };
      return { action: 'accept', content: { date: '2026-08-01' } };
    },
  );
  await client.connect(new StreamableHTTPClientTransport(url));

  // On the modern protocol the SDK answers each round with the handler and calls again.
  const result = await client.callTool({
    name: 'book_flight',
    arguments: {},
  });
  const [first] = result.content;
  console.log(first?.type === 'text' ? first.text : result);
  await client.close();
}
// #endregion client
