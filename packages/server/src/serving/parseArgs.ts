import { ProtocolError } from '@modelcontextprotocol/server';
import type * as z from 'zod';

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
