import { RESOURCE_MIME_TYPE, registerAppResource } from '@modelcontextprotocol/ext-apps/server';

import { APP_URI } from '../ask/askRoutes.ts';
import type { ResourceHandler, ResourceOptions } from '../handler/definitions.ts';

/**
 * Parley's MCP App, registered as a resource of the server that allows the App route: the page
 * (`@parley/forms/mcp-app`, loaded on the first read) a host draws for a tool call whose asks go
 * to the App, and for an elicitation that names it (SEP-3118). Registered through ext-apps' own
 * helper, so the resource carries what MCP Apps hosts look for (its MIME type, its `_meta.ui`).
 */

/** Where the App is registered: the server's own `resource()`. */
interface ResourceRegistry {
  resource(uri: string, options: ResourceOptions, handler: ResourceHandler): unknown;
}

/** Register the App on `server`. */
export function registerAskApp(server: ResourceRegistry): void {
  type Read = (uri: URL, extra: unknown) => Promise<unknown>;
  registerAppResource(
    {
      // ext-apps' helper speaks the SDK's `registerResource`; Parley's `resource()` takes the
      // same parts, and hands the read its context where the SDK hands its `extra`.
      registerResource: ((name: string, uri: string, config: object, read: Read) => {
        server.resource(
          uri,
          { ...config, name } as ResourceOptions,
          (url, ctx) => read(url, ctx) as never,
        );
        return undefined;
      }) as never,
    },
    'Your answer',
    APP_URI,
    {
      description:
        'The form a person answers a question in, for a host that draws MCP Apps but cannot ask itself.',
      cacheable: true,
      _meta: { ui: { prefersBorder: true } },
    } as never,
    async (uri) => {
      const { ASK_APP_HTML } = await import('@parley/forms/mcp-app');
      return { contents: [{ uri: uri.href, mimeType: RESOURCE_MIME_TYPE, text: ASK_APP_HTML }] };
    },
  );
}
