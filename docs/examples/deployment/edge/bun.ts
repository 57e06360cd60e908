import { createTripPlanner } from './tripPlanner.ts';

declare const Bun: {
  version: string;
  env: Record<string, string | undefined>;
  serve(options: {
    hostname: string;
    port: number;
    fetch(request: Request): Promise<Response>;
  }): { port: number };
};

// #region bun
const keys = Bun.env.REQUEST_STATE_KEY!.split(',');
const mcp = createTripPlanner(keys, `bun ${Bun.version}`);

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(Bun.env.PORT ?? 0),
  fetch: (request) => mcp.fetch(request),
});
// #endregion bun
console.log(`READY ${server.port} bun ${Bun.version}`);
