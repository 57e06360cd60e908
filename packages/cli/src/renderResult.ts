import type { ContentBlock, GetPromptResult, ReadResourceResult } from '@parley/core';
import type { Prompt, Resource, ResourceTemplateType, Tool, ToolCallResult } from '@parley/client';

/**
 * Results as plain text for stdout: what a person reads, and what a pipe gets. Kept to 80
 * columns where the text is ours to wrap.
 */

const WIDTH = 80;
const NAME_COLUMN = 24;
/** URIs are longer than names; past this they get a line of their own. */
const URI_COLUMN = 40;

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

export interface ArgumentSchema {
  type?: unknown;
  description?: unknown;
  enum?: unknown;
}

/** A property's type as a person reads it: `string`, `integer`, `yes|no` for an enum. */
export function schemaType(property: ArgumentSchema): string {
  if (Array.isArray(property.enum)) return property.enum.map(String).join('|');
  return Array.isArray(property.type) ? property.type.join('|') : String(property.type ?? 'any');
}

function argumentLines(tool: Tool): string[] {
  const schema = tool.inputSchema as {
    properties?: Record<string, ArgumentSchema>;
    required?: string[];
  };
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const description =
      typeof property.description === 'string' ? ` · ${property.description}` : '';
    return `${name}=<${schemaType(property)}>${required.has(name) ? '' : ' (optional)'}${description}`;
  });
}

/** One row of a list: a name in the first column, text and detail lines beside it. */
interface Entry {
  name: string;
  title?: string | undefined;
  text?: string | undefined;
  details?: string[];
}

/** Rows of `name  text`, wrapped to `width`; a name too long for the column gets a line of its own. */
function formatEntries(
  entries: readonly Entry[],
  width: number,
  nameColumn: number = NAME_COLUMN,
): string[] {
  const fitting = entries
    .map((entry) => entry.name.length)
    .filter((length) => length + 2 <= nameColumn);
  const column = fitting.length > 0 ? Math.max(...fitting) + 2 : nameColumn;
  const indent = ' '.repeat(column);
  const lines: string[] = [];
  for (const entry of entries) {
    const text = [
      entry.title !== undefined && entry.title !== entry.name ? `${entry.title}.` : '',
      entry.text ?? '',
    ]
      .filter(Boolean)
      .join(' ');
    const body = [
      ...wrap(text, width - column),
      ...(entry.details ?? []).flatMap((line) => wrap(line, width - column)),
    ].filter((line) => line !== '');
    if (entry.name.length + 2 > column) {
      lines.push(entry.name, ...body.map((line) => indent + line));
    } else {
      const [first = '', ...more] = body;
      lines.push(
        `${entry.name.padEnd(column)}${first}`.trimEnd(),
        ...more.map((line) => indent + line),
      );
    }
  }
  return lines;
}

/** `parley tools`: each tool's name, description and arguments. */
export function formatToolList(tools: readonly Tool[], width: number = WIDTH): string {
  if (tools.length === 0) return 'The server lists no tools.';
  return formatEntries(
    tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      text: tool.description,
      details: argumentLines(tool),
    })),
    width,
  ).join('\n');
}

/** `parley prompts`: each prompt's name, description and arguments (always strings). */
export function formatPromptList(prompts: readonly Prompt[], width: number = WIDTH): string {
  if (prompts.length === 0) return 'The server lists no prompts.';
  return formatEntries(
    prompts.map((prompt) => ({
      name: prompt.name,
      title: prompt.title,
      text: prompt.description,
      details: (prompt.arguments ?? []).map(
        (argument) =>
          `${argument.name}=<text>${argument.required === true ? '' : ' (optional)'}${argument.description !== undefined ? ` · ${argument.description}` : ''}`,
      ),
    })),
    width,
  ).join('\n');
}

function resourceText(resource: {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  mimeType?: string | undefined;
}): string {
  return [
    resource.title ?? resource.name,
    resource.description,
    resource.mimeType !== undefined ? `(${resource.mimeType})` : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * `parley resources`: the resources by URI, then the templates by URI template with the
 * variables to fill in, which `parley read` takes as a URI with the variables filled in.
 */
export function formatResourceList(
  resources: readonly Resource[],
  templates: readonly ResourceTemplateType[],
  width: number = WIDTH,
): string {
  if (resources.length === 0 && templates.length === 0)
    return 'The server lists no resources and no resource templates.';
  const sections: string[] = [];
  if (resources.length > 0) {
    sections.push(
      [
        'Resources:',
        ...formatEntries(
          resources.map((resource) => ({ name: resource.uri, text: resourceText(resource) })),
          width - 2,
          URI_COLUMN,
        ).map((line) => `  ${line}`),
      ].join('\n'),
    );
  }
  if (templates.length > 0) {
    sections.push(
      [
        'Resource templates (read them with the {variables} filled in):',
        ...formatEntries(
          templates.map((template) => ({
            name: template.uriTemplate,
            text: resourceText(template),
          })),
          width - 2,
          URI_COLUMN,
        ).map((line) => `  ${line}`),
      ].join('\n'),
    );
  }
  return sections.join('\n\n');
}
