// The peer server as a real process speaking MCP over stdio, for FastMCP's stdio transport.
import { createPeerServer } from './parleyServer.ts';

await createPeerServer().run({ transport: 'stdio' });
