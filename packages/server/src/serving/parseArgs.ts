import { ProtocolError } from '@modelcontextprotocol/server';
import type * as z from 'zod';

import type { ToolInput } from '../toolInput.ts';

/** Arguments parsed with the handler's schema; a mismatch is `-32602` listing every issue. */
export async function parseArgs(
  schema: z.ZodObject | undefined,
  args: unknown,
  what: string,
): Promise<unknown> {
  if (schema === undefined) return args ?? {};
  const parsed = await schema.safeParseAsync(args ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
    throw new ProtocolError(-32602, `Invalid arguments for ${what}: ${issues.join('; ')}`);
  }
  return parsed.data;
}

/** Tool arguments checked against the tool's input (zod or JSON Schema); `-32602` on a mismatch. */
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
