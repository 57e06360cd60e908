import { createTripPlanner } from './tripPlanner.ts';

declare const Deno: {
  version: { deno: string };
  env: { get(name: string): string | undefined };
  serve(
    options: {
      hostname: string;
      port: number;
      onListen(address: { port: number }): void;
    },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
};

// #region deno
const keys = Deno.env.get('REQUEST_STATE_KEY')!.split(',');
const mcp = createTripPlanner(keys, `deno ${Deno.version.deno}`);

Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 0),
    onListen: ({ port }) =>
      console.log(`READY ${port} deno ${Deno.version.deno}`),
  },
  (request) => mcp.fetch(request),
);
// #endregion deno
