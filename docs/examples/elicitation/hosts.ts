import { ParleyServer, elicitRequest } from '@parley/server';
import { z } from 'zod';

// #region server
export function createServer(): ParleyServer {
  const mcp = new ParleyServer({
    name: 'Travel Server',
    // The client's own form first; else, for a host that draws MCP Apps, Parley's App.
    askRoutes: ['elicitation', 'app'],
    // What you know of a host beyond what it declares (added to the built-in table).
    hostProfiles: [
      {
        name: 'acme-desktop',
        versions: '<2.0.0',
        drawsElicitation: false,
        source:
          'ACME Desktop 1.x declares elicitation but never shows the form (ticket #812).',
      },
    ],
  });
  // #endregion server

  // #region tool
  // Nothing here knows which route an ask takes.
  const askCity = elicitRequest(
    'Which city?',
    z.object({ city: z.string().min(2).meta({ title: 'City' }) }),
  );
  mcp.tool(
    'plan_trip',
    { description: 'Plan a trip' },
    async (_args, ctx) => {
      const city = await ctx.ask('city', askCity);
      if (city.action !== 'accept') return 'No trip.';
      return `A trip to ${city.data.city}.`;
    },
  );
  // #endregion tool
  return mcp;
}
