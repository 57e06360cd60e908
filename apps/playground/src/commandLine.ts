/**
 * A command line as a person types it (`node server.js --stdio`, `npx -y "my server"`) split into
 * the program and its arguments, without a shell: quotes group words, a backslash escapes the
 * next character, and nothing else is special. Pipes, redirections, `$VAR` and `$(…)` would mean
 * something to a shell and nothing here, so they are refused with a sentence rather than passed
 * on as arguments the person did not mean.
 */

/** Characters a shell would act on, unquoted. */
const SHELL_OPERATORS = /^(?:[|&;<>`]|\$[({A-Za-z_])/;

export function parseCommand(text: string): { argv: string[] } | { problem: string } {
  const argv: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
      continue;
    }
    if (char === '\\') {
      const next = text[index + 1];
      if (next === undefined) return { problem: 'The command ends with a lone backslash.' };
      // Inside double quotes, as in a shell, a backslash escapes only \ " and $.
      word = (word ?? '') + (quote === '"' && !'\\"$'.includes(next) ? char + next : next);
      index += 1;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = undefined;
      else word += char;
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
      continue;
    }
    if (/\s/.test(char)) {
      if (word !== undefined) argv.push(word);
      word = undefined;
      continue;
    }
    const operator = SHELL_OPERATORS.exec(text.slice(index, index + 2))?.[0];
    if (operator !== undefined) {
      return {
        problem: `The command runs without a shell, so ${JSON.stringify(operator)} means nothing here: quote it to pass it as an argument, or put the pipeline in a script.`,
      };
    }
    word = (word ?? '') + char;
  }
  if (quote !== undefined) return { problem: `The command has an unclosed ${quote} quote.` };
  if (word !== undefined) argv.push(word);
  if (argv.length === 0) return { problem: 'Type a command that starts an MCP server over stdio.' };
  return { argv };
}

/** `argv` as a command line the parser reads back to the same words. */
export function formatCommand(argv: readonly string[]): string {
  return argv
    .map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`))
    .join(' ');
}
