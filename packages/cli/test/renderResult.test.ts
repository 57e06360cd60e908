import { describe, expect, test } from 'vitest';

import { targetLabel } from '../src/runCli.ts';
import {
  formatPromptList,
  formatPromptResult,
  formatResourceList,
  formatResourceResult,
  formatToolList,
  formatToolResult,
  wrap,
} from '../src/renderResult.ts';
import type { Tool, ToolCallResult } from '@parley/client';

function result(overrides: Partial<ToolCallResult>): ToolCallResult {
  return {
    content: [],
    structuredContent: undefined,
    isError: false,
    data: undefined,
    ...overrides,
  };
}

describe('tool results', () => {
  test('text content, one block a line; other blocks named', () => {
    expect(
      formatToolResult(
        result({
          content: [
            { type: 'text', text: 'Booked BK-0001' },
            { type: 'image', data: 'AAAA', mimeType: 'image/png' },
            { type: 'resource_link', uri: 'file:///a.txt', name: 'a' },
            { type: 'resource', resource: { uri: 'x://y', text: 'inline' } },
          ],
        }),
      ),
    ).toBe('Booked BK-0001\n[image: image/png, 3 bytes]\n[link: a file:///a.txt]\ninline');
  });

  test('a structured result is pretty JSON (unwrapped data preferred)', () => {
    const structured = { id: 'BK-1', seats: [1, 2] };
    expect(
      formatToolResult(
        result({
          content: [{ type: 'text', text: '{}' }],
          structuredContent: structured,
          data: structured,
        }),
      ),
    ).toBe(JSON.stringify(structured, null, 2));
    expect(formatToolResult(result({ structuredContent: { result: 3 }, data: 3 }))).toBe('3');
  });

  test('nothing at all says so', () => {
    expect(formatToolResult(result({}))).toBe('(no content)');
  });
});

test('prompt and resource results', () => {
  expect(
    formatPromptResult({
      description: 'Summary',
      messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }],
    }),
  ).toBe('Summary\n\nuser: Hi');
  expect(
    formatResourceResult({
      contents: [
        { uri: 'a://b', text: 'line' },
        { uri: 'a://c', mimeType: 'image/png', blob: 'AAAA' },
      ],
    }),
  ).toBe('line\n[binary: a://c, image/png, 3 bytes]');
});

describe('the tool list', () => {
  const tools: Tool[] = [
    {
      name: 'book_flight',
      description: 'Book a flight: asks where, when, and who travels (three rounds).',
      inputSchema: { type: 'object' },
    },
    {
      name: 'cancel_booking',
      description: 'Cancel a booking, after the user confirms.',
      inputSchema: {
        type: 'object',
        properties: {
          id: { type: 'string', description: 'Booking id, e.g. BK-0001' },
          reason: { type: 'string' },
        },
        required: ['id'],
      },
    },
    { name: 'a_tool_with_a_really_long_name_indeed', inputSchema: { type: 'object' } },
  ];

  test('names, wrapped descriptions and arguments, in 80 columns', () => {
    const text = formatToolList(tools);
    expect(text.split('\n')).toEqual([
      'book_flight     Book a flight: asks where, when, and who travels (three rounds).',
      'cancel_booking  Cancel a booking, after the user confirms.',
      '                id=<string> · Booking id, e.g. BK-0001',
      '                reason=<string> (optional)',
      'a_tool_with_a_really_long_name_indeed',
    ]);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  test('an empty list says so', () => {
    expect(formatToolList([])).toBe('The server lists no tools.');
  });

  test('wrap keeps words whole', () => {
    expect(wrap('aa bb cc dd', 5)).toEqual(['aa bb', 'cc dd']);
    expect(wrap('abcdefgh ij', 5)).toEqual(['abcdefgh', 'ij']);
  });
});

describe('the prompt and resource lists', () => {
  test('prompts: names, descriptions and their text arguments', () => {
    expect(
      formatPromptList([
        {
          name: 'summarize',
          description: 'Summarize a quarter (asks which one).',
          arguments: [
            { name: 'quarter', description: 'Q1 to Q4', required: true },
            { name: 'style' },
          ],
        },
      ]).split('\n'),
    ).toEqual([
      'summarize  Summarize a quarter (asks which one).',
      '           quarter=<text> · Q1 to Q4',
      '           style=<text> (optional)',
    ]);
    expect(formatPromptList([])).toBe('The server lists no prompts.');
  });

  test('resources by URI, then templates by URI template', () => {
    const text = formatResourceList(
      [
        {
          uri: 'report://summary',
          name: 'summary',
          title: 'Quarterly summary',
          mimeType: 'text/plain',
        },
      ],
      [
        {
          uriTemplate: 'report://{quarter}/revenue',
          name: 'quarterly revenue',
          title: 'Revenue of one quarter',
        },
      ],
    );
    expect(text.split('\n')).toEqual([
      'Resources:',
      '  report://summary  Quarterly summary · (text/plain)',
      '',
      'Resource templates (read them with the {variables} filled in):',
      '  report://{quarter}/revenue  Revenue of one quarter',
    ]);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(formatResourceList([], [])).toBe(
      'The server lists no resources and no resource templates.',
    );
  });
});

test('a long stdio command line is shortened in the middle', () => {
  const label = targetLabel({
    kind: 'stdio',
    command: {
      command: 'node',
      args: [
        '--conditions=@parley/source',
        '--import',
        'tsx',
        'apps/reporting/src/main.ts',
        '--stdio',
      ],
    },
  });
  expect(label).toHaveLength(48);
  expect(label).toMatch(/^node --conditions.*….*main\.ts --stdio$/);
  expect(targetLabel({ kind: 'http', url: 'http://127.0.0.1:3001/mcp' })).toBe(
    'http://127.0.0.1:3001/mcp',
  );
});
