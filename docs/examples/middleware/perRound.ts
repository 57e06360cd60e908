import { LoggingMiddleware, TimingMiddleware } from '@parley/middleware';
import type { ParleyServer } from '@parley/server';

/** Installs the logging and timing built-ins on any server. */
export function withLogging(mcp: ParleyServer): ParleyServer {
  // #region use
  mcp.use(new LoggingMiddleware(), new TimingMiddleware()); // both write to stderr by default
  // #endregion use
  return mcp;
}
