#!/usr/bin/env node
/**
 * The `parley` command: call the tools of an MCP server and answer its questions in the
 * terminal. `parley --help` lists the commands. Questions are drawn on stderr, so stdout carries
 * only the result.
 */
import process from 'node:process';

import { clackPrompter } from './clackPrompter.ts';
import { runCli } from './runCli.ts';

// `parley tools … | head -1`: the reader went away. Nothing is left to say to it; end quietly
// instead of crashing on the write.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

// The SDK's client narrates to console.debug, which writes to stdout; stdout carries the result
// alone (`parley prompts … > prompts.txt`), and the CLI says itself what the SDK would narrate.
// eslint-disable-next-line no-console -- silencing it is the point
console.debug = () => {};

const interrupt = new AbortController();
// The first Ctrl-C while waiting for the server cancels the call (and tells the server); a
// second one leaves at once. Inside a prompt, Ctrl-C is the prompt's own: it cancels the question.
process.on('SIGINT', () => {
  if (interrupt.signal.aborted) process.exit(130);
  interrupt.abort(new Error('Interrupted (Ctrl-C).'));
});

// No top-level await: the same entry is also built as CommonJS.
void runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  prompter: clackPrompter({ output: process.stderr }),
  cwd: process.cwd(),
  interactive: process.stdin.isTTY === true,
  signal: interrupt.signal,
  env: Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  ),
}).then((code) => {
  process.exitCode = code;
  // After Ctrl-C a connection attempt may still hold the event loop; nothing is left to print.
  if (interrupt.signal.aborted) process.exit();
});
