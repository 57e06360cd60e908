/**
 * `@parley/forms/mcp-app`: Parley's MCP App as one HTML document, for a server to serve as its
 * UI resource (`text/html;profile=mcp-app`). `@parley/server` serves it as `ui://parley/ask` when
 * the App route is on (`askRoutes`); nothing here touches the DOM, so a server imports it safely.
 */
export { ASK_APP_HTML } from './mcpApp/html.ts';
