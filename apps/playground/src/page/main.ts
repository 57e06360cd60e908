import { Client, type ClientMode, type ClientOptions } from '@parley/client';

import { FORWARDER_HEADER, FORWARDER_HEADER_VALUE } from '../forwarderHeader.ts';
import { answerThroughApp } from './appHost.ts';
import { createArgumentsForm, type ArgumentsForm } from './argumentsForm.ts';
import { askElicitation, askSampling, createRootsEditor } from './asks.ts';
import { catalogueOf, renderCatalogue, type Choice } from './catalogue.ts';
import { connectionProblem } from './connectionError.ts';
import {
  asAppHost,
  authorization,
  connectionControls,
  eraChoice,
  fillConnectForm,
  noElicitation,
  rememberAuthorization,
  serverChoice,
  serverCommand,
  serverUrl,
  transport,
} from './connectForm.ts';
import { copy } from './copyBox.ts';
import { callRequest, curlCommand } from './curl.ts';
import { byId, describeError, h } from './dom.ts';
import { createHistory, type CallRecord, type ServerRecord } from './history.ts';
import { createRawLog } from './rawLog.ts';
import { MCP_APPS_EXTENSION } from './routes.ts';
import { commandHeaders, startCommand, type RunningCommand } from './stdioCommand.ts';
import { createTimeline, type CallEntry } from './timeline.ts';

/**
 * The playground page: pick a server (a URL, or a command the playground starts) and an era,
 * connect, choose a tool, prompt or resource, give its arguments and run it. Every HTTP request
 * goes through the playground's forwarder on this origin, so any MCP server is reachable without
 * CORS; a command is reached through the playground's stdio bridge. Beside it: the raw JSON-RPC
 * (with copy as curl) and a history kept in this browser.
 */

interface DemoServer {
  name: string;
  title: string;
  url: string;
}

const connectForm = byId<HTMLFormElement>('connect-form');
const connectButton = byId<HTMLButtonElement>('connect');
const disconnectButton = byId<HTMLButtonElement>('disconnect');
const connectionStatus = byId('connection-status');
const errorBox = byId('error');
const catalogueSection = byId('catalogue');
const callSection = byId('call');
const callForm = byId<HTMLFormElement>('call-form');
const callTitle = byId('call-title');
const callDescription = byId('call-description');
const callArguments = byId('call-arguments');
const runButton = byId<HTMLButtonElement>('run');
const stopButton = byId<HTMLButtonElement>('stop');
const asks = byId('asks');
const timeline = createTimeline(byId<HTMLOListElement>('timeline'));
const stderrBox = byId<HTMLDetailsElement>('stderr');
const stderrLog = byId('stderr-log');
const curlAuthorization = byId<HTMLInputElement>('curl-authorization');

/** What the person connected to: the server's real URL (none for a command), for curl. */
let connection:
  { record: ServerRecord; realUrl: string | undefined; command?: RunningCommand } | undefined;
let client: Client | undefined;
let chosen: { choice: Choice; form: ArgumentsForm } | undefined;
let running: { entry: CallEntry; abort: AbortController } | undefined;
const roots = createRootsEditor(asks);

const rawLog = createRawLog(byId<HTMLOListElement>('raw-log'), {
  includeAuthorization: () => curlAuthorization.checked,
  copy,
});
byId('clear-raw').addEventListener('click', () => rawLog.clear());

function showError(message: string | undefined): void {
  errorBox.textContent = message ?? '';
  errorBox.hidden = message === undefined;
}

/** The forwarder's URL for `target`: same origin, so the browser never asks about CORS. */
function proxied(target: string): string {
  return new URL(`/mcp-proxy?target=${encodeURIComponent(target)}`, location.href).href;
}

async function loadServers(): Promise<void> {
  let servers: DemoServer[] = [];
  try {
    const response = await fetch('/config.json');
    servers = ((await response.json()) as { servers: DemoServer[] }).servers;
  } catch (error) {
    showError(`Could not load the demo servers: ${describeError(error)}`);
  }
  serverChoice.replaceChildren(
    ...servers.map((server) => h('option', { value: server.url }, server.title)),
    h('option', { value: '' }, 'Another server (type its URL)'),
  );
  serverUrl.value = servers[0]?.url ?? '';
}

function setConnected(connected: boolean): void {
  connectButton.disabled = connected;
  disconnectButton.disabled = !connected;
  for (const control of connectionControls) control.disabled = connected;
  catalogueSection.hidden = !connected;
  if (!connected) {
    callSection.hidden = true;
    chosen = undefined;
  }
}

function choose(choice: Choice): void {
  chosen = { choice, form: createArgumentsForm('Arguments', choice.fields) };
  callTitle.textContent = `Call ${choice.label}`;
  callDescription.textContent = choice.description ?? '';
  callArguments.replaceChildren(chosen.form.element);
  callSection.hidden = false;
  for (const button of document.querySelectorAll<HTMLButtonElement>('.choices button')) {
    button.setAttribute('aria-pressed', String(button.dataset.choice === choice.id));
  }
  (
    (callArguments.querySelector('input, select, textarea') as HTMLElement | null) ?? runButton
  ).focus();
}

/** The client the connect form describes: which era, what kind of host, which transport. */
function clientOptions(mode: ClientMode, stdio: boolean, auth: string | undefined): ClientOptions {
  const base: ClientOptions = {
    mode,
    clientInfo: { name: 'parley-playground', version: '0.0.0' },
    // The forwarder serves only requests that carry it: no link can. A command also needs the
    // page's token.
    headers: stdio ? commandHeaders() : { [FORWARDER_HEADER]: FORWARDER_HEADER_VALUE },
    // Every message, to the raw pane; the authorization header, to the server.
    fetch: rawLog.fetchFor({
      realUrl: stdio ? undefined : serverUrl.value.trim(),
      authorization: auth,
    }),
    onRound: (event) => timeline.round(event),
  };
  // A host that draws MCP Apps and cannot ask: the UI extension, and nothing else.
  if (asAppHost.checked) return { ...base, tasks: false, extensions: MCP_APPS_EXTENSION };
  return {
    ...base,
    ...(noElicitation.checked
      ? {}
      : {
          elicitationHandler: (_message, _responseType, params, ctx) =>
            askElicitation(asks, params, ctx),
        }),
    samplingHandler: (messages, params, ctx) => askSampling(asks, messages, params, ctx),
    roots,
  };
}

/** Start the command the form names: its MCP endpoint, or `undefined` (the error shown). */
async function startTypedCommand(): Promise<RunningCommand | undefined> {
  stderrLog.textContent = '';
  stderrBox.hidden = false;
  const started: RunningCommand | { problem: string } = await startCommand(
    serverCommand.value.trim(),
    {
      stderr: (line) => stderrLog.append(`${line}\n`),
      exit: (sentence) => {
        // The command the page is connected to ended (not one it let go of): say so, let go.
        if (connection?.command !== started) return;
        void disconnect();
        showError(sentence);
      },
    },
  );
  if ('problem' in started) {
    showError(started.problem);
    serverCommand.focus();
    return undefined;
  }
  return started;
}

async function connect(): Promise<void> {
  showError(undefined);
  const stdio = transport() === 'stdio';
  const target = (stdio ? serverCommand : serverUrl).value.trim();
  if (!stdio && (!/^https?:\/\//.test(target) || !URL.canParse(target))) {
    showError('The URL must be an http:// or https:// URL, e.g. http://127.0.0.1:3001/mcp.');
    serverUrl.focus();
    return;
  }
  const auth = stdio || authorization.value.trim() === '' ? undefined : authorization.value.trim();
  connectButton.disabled = true;
  connectionStatus.textContent = `Connecting to ${target}…`;
  const command = stdio ? await startTypedCommand() : undefined;
  if (stdio && command === undefined) {
    connectButton.disabled = false;
    connectionStatus.textContent = 'Not connected.';
    return;
  }
  const record: ServerRecord = {
    kind: stdio ? 'command' : 'url',
    target,
    era: eraChoice.value,
    asAppHost: asAppHost.checked,
    noElicitation: noElicitation.checked,
    ...(auth !== undefined && rememberAuthorization.checked ? { authorization: auth } : {}),
  };
  connection = { record, realUrl: stdio ? undefined : target, ...(command ? { command } : {}) };
  const next = new Client(
    command?.url ?? proxied(target),
    clientOptions(eraChoice.value as ClientMode, stdio, auth),
  );
  try {
    await next.connect();
  } catch (error) {
    connectButton.disabled = false;
    connectionStatus.textContent = 'Not connected.';
    // A command that ended says why better than the HTTP error its endpoint gave.
    const ended = await Promise.race([
      command?.ended,
      new Promise<undefined>((resolve) => setTimeout(resolve, 1_000)),
    ]);
    showError(
      ended !== undefined
        ? `Could not connect to ${target}: ${ended}`
        : stdio
          ? `Could not connect to ${target}: ${describeError(error)}`
          : connectionProblem(error, target),
    );
    await next.close().catch(() => {});
    connection = undefined;
    command?.stop();
    return;
  }
  client = next;
  // A command has no URL for curl to reach.
  byId('copy-call').hidden = stdio;
  connectionStatus.textContent = `Connected to ${target}: ${next.era} era (${next.protocolVersion}).`;
  setConnected(true);
  history.addServer(record);
  const catalogue = await catalogueOf(next);
  renderCatalogue(catalogue, choose);
  if (catalogue.problems.length > 0) showError(catalogue.problems.join(' '));
}

async function disconnect(): Promise<void> {
  running?.abort.abort(new Error('disconnected'));
  const closing = client;
  client = undefined;
  const command = connection?.command;
  connection = undefined;
  setConnected(false);
  connectionStatus.textContent = 'Not connected.';
  await closing?.close().catch((error: unknown) => showError(describeError(error)));
  // A command lives as long as the page reads its events.
  command?.stop();
}

async function run(): Promise<void> {
  if (client === undefined || chosen === undefined || running !== undefined) return;
  const read = chosen.form.read();
  if ('problem' in read) {
    showError(read.problem);
    return;
  }
  showError(undefined);
  const { choice } = chosen;
  const args = read.values;
  const abort = new AbortController();
  const entry = timeline.start({
    method: choice.method,
    name: choice.label,
    args,
    era: client.era ?? 'unknown',
    protocolVersion: client.protocolVersion ?? 'unknown',
  });
  running = { entry, abort };
  runButton.disabled = true;
  stopButton.disabled = false;
  // The client this call runs on, even if the page disconnects meanwhile.
  const connected = client;
  const record = connection!.record;
  const remember = (outcome: string) =>
    history.addCall({
      server: record,
      method: choice.method,
      name: choice.label,
      args,
      outcome,
    });
  try {
    const outcome = await choice.run(connected, args, abort.signal, (task) => entry.task(task));
    entry.finish(
      outcome.kind === 'tool'
        ? {
            kind: 'tool',
            // Questions a result brought for Parley's App (a host that draws Apps).
            result: await answerThroughApp(outcome.result, {
              client: connected,
              region: asks,
              entry,
              signal: abort.signal,
            }),
          }
        : outcome,
    );
    remember(
      outcome.kind === 'tool' && outcome.result.isError === true ? 'the tool failed' : 'done',
    );
  } catch (error) {
    entry.fail(error);
    remember(describeError(error));
  } finally {
    running = undefined;
    runButton.disabled = false;
    stopButton.disabled = true;
  }
}

connectForm.addEventListener('submit', (event) => {
  event.preventDefault();
  void connect();
});
disconnectButton.addEventListener('click', () => void disconnect());
callForm.addEventListener('submit', (event) => {
  event.preventDefault();
  void run();
});
stopButton.addEventListener('click', () => running?.abort.abort(new Error('stopped by the user')));

const sameServer = (a: ServerRecord | undefined, b: ServerRecord) =>
  a !== undefined && a.kind === b.kind && a.target === b.target && a.era === b.era;

async function restoreServer(record: ServerRecord): Promise<void> {
  if (client !== undefined) await disconnect();
  fillConnectForm(record);
  await connect();
}

/** Connect to the call's server when not connected to it, choose the call, fill its arguments. */
async function restoreCall(record: CallRecord): Promise<void> {
  if (client === undefined || !sameServer(connection?.record, record.server)) {
    await restoreServer(record.server);
  }
  // In the list of its kind: a tool and a prompt may share a name.
  const list = { 'tools/call': 'tools', 'prompts/get': 'prompts', 'resources/read': 'resources' };
  const button = [
    ...document.querySelectorAll<HTMLButtonElement>(`#${list[record.method]} button`),
  ].find((candidate) => candidate.textContent === record.name);
  if (client === undefined) return;
  if (button === undefined) {
    showError(`${record.server.target} no longer offers ${record.name}.`);
    return;
  }
  button.click();
  for (const [name, value] of Object.entries(record.args)) {
    const control = callArguments.querySelector<HTMLInputElement>(`[name="${CSS.escape(name)}"]`);
    if (control !== null) control.value = typeof value === 'string' ? value : JSON.stringify(value);
  }
}

const history = createHistory(
  {
    servers: byId<HTMLOListElement>('history-servers'),
    calls: byId<HTMLOListElement>('history-calls'),
    clear: byId<HTMLButtonElement>('clear-history'),
  },
  { server: (record) => void restoreServer(record), call: (record) => void restoreCall(record) },
);

/** The call the form describes, as curl against the server's real URL. */
byId('copy-call').addEventListener('click', () => {
  if (chosen === undefined) return;
  if (connection?.realUrl === undefined) {
    showError('A command over stdio has no URL to send curl to: copy works for HTTP servers.');
    return;
  }
  const read = chosen.form.read();
  if ('problem' in read) {
    showError(read.problem);
    return;
  }
  const request = callRequest(
    chosen.choice.method,
    chosen.choice.label,
    read.values,
    rawLog.latest(),
  );
  if (request === undefined) {
    showError('A resource template is read by its filled-in URI: run it, then copy that request.');
    return;
  }
  const auth = authorization.value.trim();
  copy(
    curlCommand({
      url: connection.realUrl,
      ...request,
      ...(curlAuthorization.checked && auth !== '' ? { authorization: auth } : {}),
    }),
  );
});

void loadServers();
