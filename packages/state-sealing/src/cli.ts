#!/usr/bin/env node
import { generateKey } from './generateKey.ts';

// `npx @parley/state-sealing keygen`: the package's one command-line tool.

const USAGE = `Usage: npx @parley/state-sealing <command>

Commands:
  keygen   print a new 32-byte secret as 64 hex digits, for createRequestStateSealer({ keys })

Give every replica the same secret, e.g. REQUEST_STATE_KEY=$(npx @parley/state-sealing keygen)
`;

const [command, ...rest] = process.argv.slice(2);

if (command === 'keygen' && rest.length === 0) {
  process.stdout.write(`${generateKey()}\n`);
} else if (
  command === undefined ||
  command === 'help' ||
  command === '--help' ||
  command === '-h'
) {
  process.stdout.write(USAGE);
} else {
  process.stderr.write(`Unknown arguments: ${process.argv.slice(2).join(' ')}\n\n${USAGE}`);
  process.exitCode = 2;
}
