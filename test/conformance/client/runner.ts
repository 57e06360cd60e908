/**
 * The Parley client as the conformance suite's client under test. The harness starts it as
 * `<command> <server URL>` with `MCP_CONFORMANCE_SCENARIO` and `MCP_CONFORMANCE_PROTOCOL_VERSION`
 * set; it runs on the project's Node 20 (the harness itself needs Node 22).
 *
 * The lifecycle follows the protocol version: a handshake for 2025-11-25 and earlier, per-request
 * metadata for 2026-07-28. Every elicitation is accepted with the schema's defaults (SEP-1034),
 * and a value of the right kind for a required field that has none.
 */
import {
  Client,
  type ClientMode,
  type ElicitationHandler,
  type ResponseBuilder,
} from '@parley/client';

const MODERN = '2026-07-28';

const serverUrl = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const protocolVersion = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? '2025-11-25';
const mode: ClientMode = protocolVersion >= MODERN ? 'modern' : 'handshake';

/** A value for each required field the schema gives no default for; defaults fill the rest. */
function fill(responseType: ResponseBuilder): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of responseType.fields) {
    if (!field.required || field.default !== undefined) continue;
    const first = field.options?.[0]?.value;
    values[field.name] =
      field.kind === 'boolean'
        ? true
        : field.kind === 'number' || field.kind === 'integer'
          ? (field.minimum ?? 1)
          : field.kind === 'multi-select'
            ? first === undefined
              ? []
              : [first]
            : (first ?? 'conformance');
  }
  return values;
}

const acceptWithDefaults: ElicitationHandler = (_message, responseType) =>
  responseType(fill(responseType));

async function run(client: Client): Promise<void> {
  switch (scenario) {
    case 'tools_call':
      await client.listTools();
      await client.callTool('add_numbers', { a: 5, b: 3 });
      return;
    case 'elicitation-sep1034-client-defaults':
      await client.callTool('test_client_elicitation_defaults', {});
      return;
    case 'sep-2322-client-request-state': {
      // The unrelated call runs while an echo flow is mid-round, to prove nothing leaks into it.
      await client.listTools();
      await Promise.all([
        client.callTool('test_mrtr_echo_state', {}),
        client.callTool('test_mrtr_unrelated', {}),
      ]);
      await client.callTool('test_mrtr_no_state', {});
      await client.callTool('test_mrtr_no_result_type', {});
      return;
    }
    case 'request-metadata':
      await client.listTools();
      await client.callTool('test_tool', {});
      return;
    default:
      // 'initialize' and anything else: connect, look around, leave.
      await client.listTools();
  }
}

async function main(): Promise<void> {
  if (serverUrl === undefined || !URL.canParse(serverUrl)) {
    throw new TypeError(`runner: expected the server URL as the last argument, got ${serverUrl}`);
  }
  await using client = new Client(serverUrl, {
    mode,
    clientInfo: { name: 'parley-conformance-client', version: '1.0.0' },
    elicitationHandler: acceptWithDefaults,
  });
  await client.connect();
  await run(client);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`[parley runner] ${scenario} at ${protocolVersion}:`, error);
    process.exit(1);
  },
);
