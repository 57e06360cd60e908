// #region server
import {
  McpServer,
  acceptedContent,
  createRequestStateCodec,
  inputRequired,
} from '@modelcontextprotocol/server';
import * as z from 'zod';

const text = (value: string) => ({
  content: [{ type: 'text' as const, text: value }],
});

/** The raw SDK v2 on the modern protocol: the guard pattern, written by hand. */
export function createSdkServer(key: string): McpServer {
  // Signs requestState (it is not encrypted: the client can read it).
  const codec = createRequestStateCodec<{ destination: string }>({ key });
  const server = new McpServer(
    { name: 'Booking Server', version: '1.0.0' },
    { requestState: { verify: codec.verify } },
  );

  server.registerTool(
    'book_flight',
    { inputSchema: z.object({}) },
    async (_args, ctx) => {
      const state = ctx.mcpReq.requestState<{ destination: string }>();
      if (state === undefined) {
        // Round 1 or 2: is there a destination yet?
        const where = acceptedContent(
          ctx.mcpReq.inputResponses,
          'destination',
          z.object({ destination: z.string() }),
        );
        if (where === undefined) {
          return inputRequired({
            inputRequests: {
              destination: inputRequired.elicit({
                message: 'Where would you like to fly?',
                requestedSchema: {
                  type: 'object',
                  properties: { destination: { type: 'string' } },
                  required: ['destination'],
                },
              }),
            },
          });
        }
        return inputRequired({
          inputRequests: {
            date: inputRequired.elicit({
              message: `When would you like to fly to ${where.destination}?`,
              requestedSchema: {
                type: 'object',
                properties: { date: { type: 'string', format: 'date' } },
                required: ['date'],
              },
            }),
          },
          requestState: await codec.mint({
            destination: where.destination,
          }),
        });
      }
      // Round 3: the destination is in the verified state, the date in the answers.
      const when = acceptedContent(
        ctx.mcpReq.inputResponses,
        'date',
        z.object({ date: z.iso.date() }),
      );
      if (when === undefined) return text('Booking cancelled.');
      return text(
        `Booked a flight to ${state.destination} on ${when.date}`,
      );
    },
  );

  return server;
}
// #endregion server
