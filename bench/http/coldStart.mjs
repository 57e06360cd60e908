// Cold start of one contender, run with plain `node` (no loader), packages from their built
// `dist`: import everything, build the booking server, listen, and report the URL over IPC, with
// the moment this script began (after Node's own bootstrap, before any import: the imports below
// are dynamic so that this line runs first). The parent times from there, and from spawn, to the
// first modern response. `parley`, `sdk`, or `floor`: what any server of this app pays before a
// framework's own work (the same zod import and schema, node:http listening, node:crypto sealing the
// state, the first response written by hand).
const startedAt = performance.timeOrigin + performance.now();
const kind = process.argv[2];
const { z } = await import('zod');
const destination = z.object({ destination: z.string() });

let url;
if (kind === 'parley') {
  const { ParleyServer, elicitRequest, inputRequired } = await import('@parley/server');
  const mcp = new ParleyServer({ name: 'booking', onWarning: () => {} });
  const ask = elicitRequest('Where would you like to fly?', destination);
  mcp.tool('book_flight', (_args, ctx) => {
    const where = ctx.answer('destination', ask);
    if (where === undefined) return inputRequired({ inputRequests: { destination: ask } });
    return `Booked a flight to ${where.action === 'accept' ? where.data.destination : '?'}`;
  });
  url = (await mcp.run({ transport: 'http', port: 0 })).url;
} else if (kind === 'floor') {
  const [{ createServer }, { createCipheriv, randomBytes }] = await Promise.all([
    import('node:http'),
    import('node:crypto'),
  ]);
  const key = randomBytes(32);
  const seal = (state) => {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    const sealed = Buffer.concat([cipher.update(JSON.stringify(state)), cipher.final()]);
    return Buffer.concat([nonce, sealed, cipher.getAuthTag()]).toString('base64url');
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const { id } = JSON.parse(body);
      const result = {
        resultType: 'input_required',
        inputRequests: {
          destination: {
            method: 'elicitation/create',
            params: {
              mode: 'form',
              message: 'Where would you like to fly?',
              requestedSchema: z.toJSONSchema(destination),
            },
          },
        },
        requestState: seal({ round: 1 }),
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${server.address().port}/mcp`;
} else {
  const [{ createServer }, { toNodeHandler }, sdk] = await Promise.all([
    import('node:http'),
    import('@modelcontextprotocol/node'),
    import('@modelcontextprotocol/server'),
  ]);
  const build = () => {
    const server = new sdk.McpServer({ name: 'booking', version: '1.0.0' });
    server.registerTool('book_flight', { inputSchema: z.object({}) }, async (_args, ctx) => {
      const where = sdk.acceptedContent(ctx.mcpReq.inputResponses, 'destination', destination);
      if (where === undefined) {
        return sdk.inputRequired({
          inputRequests: {
            destination: sdk.inputRequired.elicit({
              message: 'Where would you like to fly?',
              requestedSchema: destination,
            }),
          },
        });
      }
      return { content: [{ type: 'text', text: `Booked a flight to ${where.destination}` }] };
    });
    return server;
  };
  const server = createServer(toNodeHandler(sdk.createMcpHandler(build, { legacy: 'reject' })));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${server.address().port}/mcp`;
}
process.send({ url, startedAt });
process.on('message', () => process.exit(0));
