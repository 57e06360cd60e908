import { ProtocolError } from '@modelcontextprotocol/server';

import type { ToolInput } from '../toolInput.ts';

/**
 * Tool and prompt arguments checked against their input (a schema library's validator, or JSON
 * Schema for a tool); `-32602` listing every issue on a mismatch.
 */
export async function validArgs(
  input: ToolInput | undefined,
  args: unknown,
  what: string,
): Promise<unknown> {
  if (input === undefined) return args ?? {};
  const checked = await input.validate(args ?? {});
  if (!checked.ok)
    throw new ProtocolError(-32602, `Invalid arguments for ${what}: ${checked.issues.join('; ')}`);
  return checked.value;
}
