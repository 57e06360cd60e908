// #region worker
import type { ParleyServer } from '@parley/server';

import { createTripPlanner } from './tripPlanner.ts';

interface Env {
  REQUEST_STATE_KEY: string; // a secret: `wrangler secret put REQUEST_STATE_KEY`
}

let mcp: ParleyServer | undefined; // one per isolate, made on its first request

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    mcp ??= createTripPlanner(env.REQUEST_STATE_KEY.split(','), 'workerd');
    return mcp.fetch(request);
  },
};
// #endregion worker
