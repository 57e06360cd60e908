import { ProtocolError, type Tool } from '@modelcontextprotocol/client';
import { describe, expect, test } from 'vitest';

import { checkStructuredOutput, withoutOutputSchema } from '../src/toolOutput.ts';

const tool: Tool = {
  name: 'reserve_seat',
  inputSchema: { type: 'object', properties: { region: { type: 'string' } } },
  outputSchema: {
    type: 'object',
    properties: { seat: { type: 'string' } },
    required: ['seat'],
  },
};

describe('checkStructuredOutput (the final result of a modern multi-round call)', () => {
  test('conforming content passes', async () => {
    await expect(
      checkStructuredOutput(tool, { content: [], structuredContent: { seat: '12A' } }),
    ).resolves.toBeUndefined();
  });

  test('non-conforming content is refused in the SDK wording', async () => {
    const check = checkStructuredOutput(tool, { content: [], structuredContent: { seat: 12 } });
    await expect(check).rejects.toBeInstanceOf(ProtocolError);
    await expect(check).rejects.toThrow(
      /Structured content does not match the tool's output schema/,
    );
  });

  test('missing content is refused, an error result is not checked', async () => {
    await expect(checkStructuredOutput(tool, { content: [] })).rejects.toThrow(
      'Tool reserve_seat has an output schema but did not return structured content',
    );
    await expect(
      checkStructuredOutput(tool, { content: [], isError: true }),
    ).resolves.toBeUndefined();
  });

  test('the definition sent with each leg keeps the input schema, not the output schema', () => {
    const sent = withoutOutputSchema(tool);
    expect(sent.outputSchema).toBeUndefined();
    expect(sent.inputSchema).toEqual(tool.inputSchema);
    expect(tool.outputSchema).toBeDefined();
  });
});
