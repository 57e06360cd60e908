import { readFileSync } from 'node:fs';

import { describe, expect, test } from 'vitest';

// @ts-expect-error -- a plain ESM build script, without types
import { HTML_MODULE, mcpAppModule } from '../scripts/buildMcpApp.mjs';
import { ASK_APP_HTML } from '../src/mcp-app.ts';

/**
 * Parley's MCP App is committed as the HTML string the server serves (`src/mcpApp/html.ts`), so
 * it works from source and from the package alike. It must be what the source builds now.
 */
describe('the MCP App', () => {
  test('is what src/mcpApp/askApp.ts builds (run `pnpm --filter @parley/forms build:app` after a change)', async () => {
    const built = (await mcpAppModule()) as string;
    expect(readFileSync(HTML_MODULE as string, 'utf8') === built).toBe(true);
  });

  test('is one HTML document with its script inline, and nothing that would end it early', () => {
    expect(ASK_APP_HTML.startsWith('<!doctype html>')).toBe(true);
    expect(ASK_APP_HTML).toContain('<html lang="en">');
    const script = ASK_APP_HTML.slice(
      ASK_APP_HTML.indexOf('<script type="module">') + '<script type="module">'.length,
      ASK_APP_HTML.lastIndexOf('</script>'),
    );
    expect(script.length).toBeGreaterThan(10_000);
    expect(script).not.toMatch(/<\/script/i);
    // Nothing is fetched from elsewhere: hosts sandbox Apps without network by default.
    expect(ASK_APP_HTML).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
  });
});
