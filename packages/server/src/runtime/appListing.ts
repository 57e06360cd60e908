import { RESOURCE_URI_META_KEY, registerAppTool } from '@modelcontextprotocol/ext-apps/server';
import { APP_ANSWER_TOOL } from '@parley/core';

import { APP_URI } from '../ask/askRoutes.ts';

/**
 * The tools as a client on the App route sees them: each names the App as its UI, so the host
 * draws it for the call and hands it the call's result (the questions, when the tool asks), and
 * the app-only answer tool is listed for the App to call (hidden from the model). A tool that
 * names a UI of its own keeps it.
 */

/** `_meta` in the shape ext-apps' helper gives an app tool (both of its keys). */
function appToolMeta(meta: Record<string, unknown>): Record<string, unknown> {
  let normalised: Record<string, unknown> = meta;
  registerAppTool(
    {
      registerTool: ((_name: string, config: { _meta: Record<string, unknown> }) => {
        normalised = config._meta;
        return undefined;
      }) as never,
    },
    'listing',
    { _meta: meta as never },
    (() => ({ content: [] })) as never,
  );
  return normalised;
}

/** A listed tool, naming the App as its UI unless it names one of its own. */
export function withApp(listed: Record<string, unknown>): Record<string, unknown> {
  const meta = (listed._meta ?? {}) as Record<string, unknown>;
  const ui = (meta.ui ?? {}) as Record<string, unknown>;
  if (ui.resourceUri !== undefined || meta[RESOURCE_URI_META_KEY] !== undefined) return listed;
  return { ...listed, _meta: appToolMeta({ ...meta, ui: { ...ui, resourceUri: APP_URI } }) };
}

/** The app-only tool the App sends answers with. */
export const ANSWER_TOOL_LISTING: Record<string, unknown> = Object.freeze({
  name: APP_ANSWER_TOOL,
  title: 'Answer in the form',
  description:
    "Sends a person's answers from Parley's form App to the tool that asked. Called by the App only.",
  inputSchema: {
    type: 'object',
    properties: {
      tool: { type: 'string', description: 'The tool whose questions are answered.' },
      arguments: { type: 'object', description: 'The arguments that tool was called with.' },
      requestState: { type: 'string', description: 'The sealed state the App was given.' },
      inputResponses: { type: 'object', description: 'The answers, by question key.' },
    },
    required: ['tool', 'requestState'],
  },
  _meta: appToolMeta({ ui: { resourceUri: APP_URI, visibility: ['app'] } }),
});
