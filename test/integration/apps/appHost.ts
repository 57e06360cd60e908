/**
 * A test host for MCP Apps, built the way a real one is: ext-apps' own `AppBridge` (the host
 * side of the Apps protocol) over an MCP client, and the App a tool names, drawn in a sandboxed
 * iframe of a real Chromium (playwright-core, the browser the docs' test finds). The bridge runs
 * here in Node; the page relays its postMessage traffic to it, so the App speaks to the host
 * exactly as it would in any host page. The bridge forwards the App's `tools/call` to the client,
 * and records what the App tells the model (`ui/update-model-context`, `ui/message`).
 */
import { createRequire } from 'node:module';

import type { Client } from '@modelcontextprotocol/client';
import { AppBridge, getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';
import { chromium, type Browser, type FrameLocator, type Page } from 'playwright-core';

import { findBrowser, launchOptions } from '../../../docs/test/browser.ts';

const require = createRequire(import.meta.url);
const AXE_PATH: string = require.resolve('axe-core/axe.min.js');

type Message = Parameters<NonNullable<AppBridge['onmessage']>>[0];
type ModelContext = Parameters<NonNullable<AppBridge['onupdatemodelcontext']>>[0];
type JsonRpcMessage = Parameters<Parameters<AppBridge['connect']>[0]['send']>[0];

const HOST_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Test host</title></head>
<body>
<main>
<h1>Test host</h1>
<iframe id="app" title="App" sandbox="allow-scripts allow-forms" style="width:100%;height:640px;border:0"></iframe>
</main>
<script>
  const frame = document.getElementById('app');
  window.addEventListener('message', (event) => {
    if (event.source === frame.contentWindow) window.toHost(event.data);
  });
  window.toApp = (message) => frame.contentWindow.postMessage(message, '*');
</script>
</body>
</html>`;

/** The bridge's transport: messages to the App go into the page, the App's come back out. */
class PageTransport {
  onmessage?: (message: JsonRpcMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  constructor(private readonly page: Page) {}
  async start(): Promise<void> {}
  async send(message: JsonRpcMessage): Promise<void> {
    await this.page.evaluate(
      (m) => (window as unknown as { toApp(m: unknown): void }).toApp(m),
      message,
    );
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
  deliver(message: unknown): void {
    this.onmessage?.(message as JsonRpcMessage);
  }
}

/** One App, drawn for one tool call. */
export interface OpenApp {
  page: Page;
  /** The App's document, inside the host's iframe. */
  app: FrameLocator;
  bridge: AppBridge;
  /** What the App put in the model's context, and the messages it sent the conversation. */
  modelContext: ModelContext[];
  messages: Message[];
  /** axe-core's serious and critical violations in the App. */
  axeViolations(): Promise<{ id: string; impact: string; help: string }[]>;
  close(): Promise<void>;
}

export interface TestHost {
  /**
   * Call `tool` through `client` and show its App with the call's input and result, as a host
   * does for a tool that names a UI. Fails when the tool names none.
   */
  callWithApp(client: Client, tool: string, args?: Record<string, unknown>): Promise<OpenApp>;
  /** Show the App at `uri` (read through `client`), initialised and waiting. */
  showApp(client: Client, uri: string): Promise<OpenApp>;
  close(): Promise<void>;
}

export async function startTestHost(): Promise<TestHost> {
  const browser: Browser = await chromium.launch(launchOptions(await findBrowser()));
  const showApp = async (client: Client, uri: string): Promise<OpenApp> => {
    const read = await client.readResource({ uri });
    const html = (read.contents[0] as { text: string }).text;

    const context = await browser.newContext();
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const transport = new PageTransport(page);
    await page.exposeBinding('toHost', (_source, message: unknown) => transport.deliver(message));
    await page.setContent(HOST_PAGE);

    const modelContext: ModelContext[] = [];
    const messages: Message[] = [];
    const bridge = new AppBridge(
      client,
      { name: 'parley-test-host', version: '1.0.0' },
      { serverTools: {}, updateModelContext: { text: {} }, message: { text: {} } },
    );
    bridge.onupdatemodelcontext = async (params) => {
      modelContext.push(params);
      return {};
    };
    bridge.onmessage = async (params) => {
      messages.push(params);
      return {};
    };
    const initialized = new Promise<void>((resolve) => {
      bridge.oninitialized = () => resolve();
    });
    await bridge.connect(transport as never);
    await page.evaluate((source) => {
      (document.getElementById('app') as HTMLIFrameElement).srcdoc = source;
    }, html);
    await initialized;
    return {
      page,
      app: page.frameLocator('#app'),
      bridge,
      modelContext,
      messages,
      async axeViolations() {
        const frame = page.frames().find((candidate) => candidate !== page.mainFrame())!;
        await frame.addScriptTag({ path: AXE_PATH });
        return frame.evaluate(async () => {
          const { axe } = window as unknown as {
            axe: {
              run(
                context: Document,
                options: object,
              ): Promise<{ violations: { id: string; impact: string; help: string }[] }>;
            };
          };
          const { violations } = await axe.run(document, { resultTypes: ['violations'] });
          return violations
            .filter(({ impact }) => impact === 'serious' || impact === 'critical')
            .map(({ id, impact, help }) => ({ id, impact, help }));
        });
      },
      async close() {
        await bridge.close().catch(() => undefined);
        await context.close();
      },
    };
  };
  return {
    showApp,
    async callWithApp(client, tool, args = {}) {
      const { tools } = await client.listTools();
      const listed = tools.find((entry) => entry.name === tool);
      const uri = listed === undefined ? undefined : getToolUiResourceUri(listed);
      if (uri === undefined) throw new Error(`tool ${tool} names no App`);
      const open = await showApp(client, uri);
      // The call itself, then what the host hands its App: the input, then the result.
      const result = await client.callTool({ name: tool, arguments: args });
      await open.bridge.sendToolInput({ arguments: args });
      await open.bridge.sendToolResult(result as never);
      return open;
    },
    async close() {
      await browser.close();
    },
  };
}
