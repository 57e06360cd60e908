import { Client } from '@parley/client';
import { renderElicitation } from '@parley/forms';

// A page served beside its MCP server; any URL the page may fetch works.
const client = new Client(new URL('/mcp', location.href), {
  // Form and URL mode alike; the call's signal takes the form down if the call is cancelled.
  elicitationHandler: (_message, _responseType, params, { signal }) =>
    renderElicitation(
      document.querySelector<HTMLElement>('#question')!,
      params,
      { signal },
    ),
});
await client.connect();

const result = await client.callTool('book_flight');
document.querySelector('#result')!.textContent = JSON.stringify(
  result.data,
);
