import type { ContentBlock, GetPromptResult, ReadResourceResult } from '@parley/core';
import type { Tool, ToolCallResult } from '@parley/client';

/**
 * Results as plain text for stdout: what a person reads, and what a pipe gets. Kept to 80
 * columns where the text is ours to wrap.
 */

const WIDTH = 80;
const NAME_COLUMN = 24;

/** Greedy word wrap; a word longer than the width gets a line of its own. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line === '') line = word;
      else if (line.length + 1 + word.length <= width) line += ` ${word}`;
      else {
        lines.push(line);
        line = word;
      }
    }
    lines.push(line);
  }
  return lines;
}

function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type}: ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`;
    case 'resource_link':
      return `[link: ${block.title ?? block.name} ${block.uri}]`;
    case 'resource':
      return 'text' in block.resource
        ? block.resource.text
        : `[resource: ${block.resource.uri}${block.resource.mimeType !== undefined ? `, ${block.resource.mimeType}` : ''}]`;
    default:
      return `[${String((block as { type: unknown }).type)} content]`;
  }
}

/** A tool's result: its structured result as JSON when it has one, its content otherwise. */
export function formatToolResult(result: ToolCallResult): string {
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    return JSON.stringify(result.data ?? result.structuredContent, null, 2);
  }
  if (result.content.length === 0) return '(no content)';
  return result.content.map(describeBlock).join('\n');
}

export function formatPromptResult(result: GetPromptResult): string {
  const lines = result.description !== undefined ? [result.description, ''] : [];
  for (const message of result.messages)
    lines.push(`${message.role}: ${describeBlock(message.content)}`);
  return lines.join('\n');
}

export function formatResourceResult(result: ReadResourceResult): string {
  return result.contents
    .map((content) =>
      'text' in content
        ? content.text
        : `[binary: ${content.uri}${content.mimeType !== undefined ? `, ${content.mimeType}` : ''}, ${Math.floor((content.blob.length * 3) / 4)} bytes]`,
    )
    .join('\n');
}

interface ArgumentSchema {
  type?: unknown;
  description?: unknown;
}

function argumentLines(tool: Tool): string[] {
  const schema = tool.inputSchema as {
    properties?: Record<string, ArgumentSchema>;
    required?: string[];
  };
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const type = Array.isArray(property.type)
      ? property.type.join('|')
      : String(property.type ?? 'any');
    const description =
      typeof property.description === 'string' ? ` · ${property.description}` : '';
    return `${name}=<${type}>${required.has(name) ? '' : ' (optional)'}${description}`;
  });
}

/** `parley tools`: each tool's name, description and arguments. */
export function formatToolList(tools: readonly Tool[], width: number = WIDTH): string {
  if (tools.length === 0) return 'The server lists no tools.';
  // A name too long for the column goes on a line of its own rather than widening every row.
  const fitting = tools
    .map((tool) => tool.name.length)
    .filter((length) => length + 2 <= NAME_COLUMN);
  const column = fitting.length > 0 ? Math.max(...fitting) + 2 : NAME_COLUMN;
  const indent = ' '.repeat(column);
  const lines: string[] = [];
  for (const tool of tools) {
    const text = [
      tool.title !== undefined && tool.title !== tool.name ? `${tool.title}.` : '',
      tool.description ?? '',
    ]
      .filter(Boolean)
      .join(' ');
    const body = [
      ...wrap(text, width - column),
      ...argumentLines(tool).flatMap((line) => wrap(line, width - column)),
    ].filter((line) => line !== '');
    if (tool.name.length + 2 > column) {
      lines.push(tool.name, ...body.map((line) => indent + line));
    } else {
      const [first = '', ...more] = body;
      lines.push(
        `${tool.name.padEnd(column)}${first}`.trimEnd(),
        ...more.map((line) => indent + line),
      );
    }
  }
  return lines.join('\n');
}
