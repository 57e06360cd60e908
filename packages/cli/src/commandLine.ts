import { UsageError } from './usage.ts';

/**
 * Split `--stdio "node server.js --flag 'two words'"` into words the way a POSIX shell would for
 * the common cases: whitespace separates, single quotes keep everything, double quotes keep
 * everything but `\"` and `\\`, a backslash outside quotes escapes the next character. No
 * variables, globs or pipes: the command is started directly, never through a shell.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && (line[index + 1] === '"' || line[index + 1] === '\\')) {
        word += line[index + 1];
        index += 1;
      } else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\' && index + 1 < line.length) {
      word += line[index + 1];
      index += 1;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote !== undefined)
    throw new UsageError(`--stdio: unclosed ${quote} in ${JSON.stringify(line)}`);
  if (inWord) words.push(word);
  return words;
}
