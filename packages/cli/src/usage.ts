/** The help text and the error for a command line `parley` cannot run. */

/** Exit codes: 0 done, 1 the tool or the protocol failed, 2 the command line is wrong. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/** A mistake in the command line (exit code 2); the message says what to type instead. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

// Kept within 80 columns: it is read in plain terminals.
export const USAGE = `parley: call an MCP server's tools, prompts and resources, and answer what it
asks, in the terminal

Usage:
  parley tools     <target>              list the server's tools
  parley prompts   <target>              list its prompts
  parley resources <target>              list its resources and templates
  parley call   <target> <tool> [args]   call a tool, answering what it asks
  parley prompt <target> <name> [args]   get a prompt, answering what it asks
  parley read   <target> <uri>           read a resource, answering what it asks
  parley proxy  <target>                 serve the server to another client,
                                         bridging the protocol eras (over stdio;
                                         --port <n> [--host <addr>]: over HTTP)
  parley help                            this text

<target>, the server:
  http://127.0.0.1:3001/mcp              a Streamable HTTP endpoint
  --stdio "<command line>"               a process speaking MCP over stdio
  -- <command> [args...]                 the same, last on the line, as in
                                         parley call book_flight -- node s.js

[args] of a tool or prompt:
  key=value ...                          one each, typed by the tool's schema
  --args '<json object>'                 all as JSON (key=value adds to it)
  Required arguments left out are asked for before the call; arguments the
  tool does not declare are refused.

Options:
  --mode auto|modern|handshake           protocol era (default auto)
  --timeout <ms>                         wait for the server (default 60000)
  --server-stderr                        show a stdio server's stderr
  --no-elicitation                       declare no elicitation, like many hosts
  --as-app-host                          call as a host that draws MCP Apps and
                                         cannot elicit; answer what the App asks
  --held-timeout <ms>                    proxy: how long a held upstream call
                                         waits for a modern client's next round
                                         (default 600000)
  --json                                 stdout gets the result (or the list)
                                         as one JSON document, as the client
                                         returns it; all else goes to stderr
  -h, --help                             this text

Questions: a line says the route each took (the client's own form, the App,
the conversation); each field is asked in turn, its limits shown (5–480, at
least 2 characters). Ctrl-D declines the question (the server carries on
without the answer); Esc or Ctrl-C cancels it. A sampling request asks you to
type the model's reply; the current directory is offered as the one root.

Exit codes: 0 done, 1 the tool reported an error or the call failed, 2 usage
(a required argument not given, or one the tool does not declare, included).
`;
