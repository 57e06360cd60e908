// #region server
import { createServer } from '../elicitation/bookFlight.ts';

// Nothing else to set up: with an SDK registered, every request is a
// span and every flow is measured. To name fields whose values may be
// recorded (none are, by default):
const mcp = createServer({
  telemetry: { record: { arguments: ['destination'] } },
});
// #endregion server

export { mcp };
