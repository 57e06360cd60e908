import {
  ErrorHandlingMiddleware,
  LoggingMiddleware,
  RateLimitingMiddleware,
  ResponseCachingMiddleware,
  TimingMiddleware,
  type FlowTiming,
} from '@parley/middleware';
import { ParleyServer, elicitRequest, inputRequired } from '@parley/server';
import * as z from 'zod';

export interface WeatherServer {
  mcp: ParleyServer;
  /** How often each handler actually ran (the cache saves some of these). */
  runs: { forecast: number; pick_city: number };
  flows: FlowTiming[];
  logLines: string[];
}

export function createServer(): WeatherServer {
  const runs = { forecast: 0, pick_city: 0 };
  const flows: FlowTiming[] = [];
  const logLines: string[] = [];

  // #region stack
  const mcp = new ParleyServer({ name: 'Weather' });

  mcp.use(
    new LoggingMiddleware({ log: (line) => logLines.push(line) }), // default: stderr
    new TimingMiddleware({ onFlow: (timing) => flows.push(timing) }), // whole flows, all rounds
    new ErrorHandlingMiddleware({ maskErrorDetails: true }),
    new RateLimitingMiddleware({ maxFlows: 3, windowMs: 60_000 }), // a flow counts once
    new ResponseCachingMiddleware({ ttlMs: 60_000 }),
  );

  // Its result depends on its arguments alone, so the cache may serve it again.
  mcp.tool(
    'forecast',
    { inputSchema: { city: z.string() }, cacheable: true },
    ({ city }) => {
      runs.forecast += 1;
      return `Sunny in ${city}`;
    },
  );
  // #endregion stack

  // #region asking
  const askCity = elicitRequest('Which city?', String, {
    responseTitle: 'City',
  });

  // Cacheable too, but its asks and its answered rounds are never cached.
  mcp.tool('pick_city', { cacheable: true }, (_args, ctx) => {
    runs.pick_city += 1;
    const city = ctx.answer('city', askCity);
    if (city === undefined)
      return inputRequired({ inputRequests: { city: askCity } });
    return city.action === 'accept' ? `Picked ${city.data}` : 'No city';
  });

  mcp.tool('crash', () => {
    throw new Error('connection to db-7 refused'); // masked: clients see "Internal error"
  });
  // #endregion asking

  return { mcp, runs, flows, logLines };
}
