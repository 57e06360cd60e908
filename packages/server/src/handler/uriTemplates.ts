import type { UriTemplate, Variables } from '@modelcontextprotocol/server';

import { loadSdk } from '../utils/loadSdk.ts';

/**
 * Resource templates (RFC 6570) are matched with the SDK's `UriTemplate`, which is loaded with
 * the SDK: registering a template starts loading it, and every way of serving waits for
 * {@link uriTemplatesReady} before its first request, so matching stays synchronous.
 */

let UriTemplateClass: typeof UriTemplate | undefined;
let loading: Promise<void> | undefined;

/** Resolves once templates can be matched. */
export function uriTemplatesReady(): Promise<void> {
  loading ??= loadSdk().then((sdk) => void (UriTemplateClass = sdk.UriTemplate));
  return loading;
}

/** A matcher for `template`; checks its syntax now (an unclosed expression is a `TypeError`). */
export function uriTemplate(template: string): { match(uri: string): Variables | null } {
  let depth = 0;
  for (const char of template) {
    if (char === '{') depth++;
    else if (char === '}') depth--;
    if (depth < 0 || depth > 1) {
      throw new TypeError(`resourceTemplate: '${template}' has unbalanced braces.`);
    }
  }
  if (depth !== 0) {
    throw new TypeError(`resourceTemplate: '${template}' has an unclosed expression.`);
  }
  void uriTemplatesReady();
  let compiled: UriTemplate | undefined;
  return {
    match(uri) {
      if (UriTemplateClass === undefined) {
        throw new Error(
          'resource templates are matched before the SDK loaded: await uriTemplatesReady() first',
        );
      }
      compiled ??= new UriTemplateClass(template);
      return compiled.match(uri);
    },
  };
}
