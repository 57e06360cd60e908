// #region main
import { createServer } from './server.ts';

const mcp = createServer();

if (process.argv.includes('--stdio')) {
  // One process per client, speaking MCP on stdin/stdout (both eras).
  await mcp.run({ transport: 'stdio' });
} else {
  // One HTTP endpoint for both eras, on 127.0.0.1.
  const running = await mcp.run({
    transport: 'http',
    port: Number(process.env.PORT ?? 3000),
  });
  console.error(`Greeter listening on ${running.url}`);
}
// #endregion main
