import { ToolResult, type InputRequest } from '@parley/core';

import { sampledText, type ArgumentSlot, type FallbackAsk } from './argumentSlots.ts';

/**
 * The "arguments needed" result of the `'arguments'` fallback: what a call ends with when its
 * asks' arguments are missing, invalid or only the user's to give, worded for the model (which
 * questions to put to the user, which arguments to call again with) and structured for a host.
 */

/** One ask the call could not take from its arguments, as the model is told about it. */
export interface NeededAsk {
  entry: FallbackAsk;
  /** The ask as the handler asked it (its message may name earlier answers); else the declared one. */
  ask: InputRequest;
  why: 'missing' | 'user-only' | 'invalid';
  /** For an invalid value: the re-ask wording. */
  wording?: string;
}

function messageOf(ask: InputRequest): string {
  if (ask.method === 'elicitation/create') return ask.params.message;
  if (ask.method === 'sampling/createMessage') return sampledText(ask);
  return 'the roots the user works in';
}

function typeOf(schema: Record<string, unknown>): string {
  const type = schema['type'];
  if (Array.isArray(schema['enum']))
    return `one of ${schema['enum'].map((v) => JSON.stringify(v)).join(', ')}`;
  if (type === 'array') {
    const items = schema['items'] as Record<string, unknown> | undefined;
    const options = (items?.['enum'] ??
      (items?.['anyOf'] as { const?: unknown }[] | undefined)?.map((o) => o.const)) as
      unknown[] | undefined;
    return options === undefined
      ? 'a list'
      : `a list of ${options.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (Array.isArray(schema['oneOf'])) {
    return `one of ${(schema['oneOf'] as { const?: unknown }[]).map((o) => JSON.stringify(o.const)).join(', ')}`;
  }
  const format = typeof schema['format'] === 'string' ? `, format ${schema['format']}` : '';
  return `${String(type)}${format}`;
}

function slotLine(slot: ArgumentSlot): string {
  return `  - ${slot.argument} (${typeOf(slot.schema)}): ${String(slot.schema['description'] ?? '')}`;
}

/**
 * The result a call ends with when its asks' arguments are missing or wrong: for the model, which
 * questions to put to the user and which arguments to call again with. It is an error result
 * (the call did not do its work), like an invalid argument's, so hosts show it as one; and it
 * carries the same facts, structured, in `_meta` for a host that acts on them.
 */
export function argumentsNeededResult(tool: string, needed: readonly NeededAsk[]): ToolResult {
  const askable = needed.filter((item) => item.why !== 'user-only');
  const userOnly = needed.filter((item) => item.why === 'user-only');
  const lines: string[] = [];
  if (askable.length > 0) {
    lines.push(
      `${tool} needs answers this client cannot ask the user for. Put these questions to the user ` +
        `(do not answer them yourself), then call ${tool} again with the same arguments and these added:`,
    );
    for (const item of askable) {
      lines.push(
        `- ${item.entry.key}: ${item.why === 'invalid' ? item.wording : messageOf(item.ask)}`,
      );
      for (const slot of item.entry.slots) lines.push(slotLine(slot));
    }
  }
  if (userOnly.length > 0) {
    lines.push(
      `${tool} also needs the user's own confirmation, which cannot be given as an argument: ` +
        userOnly
          .map(
            (item) =>
              `${item.entry.key} (${messageOf(item.ask)}: ${item.entry.userOnly.join(', ')})`,
          )
          .join('; ') +
        '. Tell the user it needs a client that can ask them (MCP elicitation).',
    );
  }
  return new ToolResult({
    content: [{ type: 'text', text: lines.join('\n') }],
    isError: true,
    _meta: {
      'parley/argumentsNeeded': {
        tool,
        asks: needed.map((item) => ({
          key: item.entry.key,
          message: messageOf(item.ask),
          reason: item.why,
          ...(item.wording !== undefined ? { wording: item.wording } : {}),
          arguments: item.entry.slots.map((slot) => slot.argument),
          ...(item.why === 'user-only' ? { userOnly: item.entry.userOnly } : {}),
        })),
      },
    },
  });
}
