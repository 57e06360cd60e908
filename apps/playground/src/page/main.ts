import { Client, type ClientMode, type ClientOptions } from '@parley/client';

import { FORWARDER_HEADER, FORWARDER_HEADER_VALUE } from '../forwarderHeader.ts';
import { answerThroughApp } from './appHost.ts';
import { createArgumentsForm, type ArgumentsForm } from './argumentsForm.ts';
import { askElicitation, askSampling, createRootsEditor } from './asks.ts';
import { catalogueOf, renderCatalogue, type Choice } from './catalogue.ts';
import { connectionProblem } from './connectionError.ts';
import { byId, describeError, h } from './dom.ts';
import { MCP_APPS_EXTENSION } from './routes.ts';
import { createTimeline, type CallEntry } from './timeline.ts';

/**
 * The playground page: pick a server and an era, connect, choose a tool, prompt or resource,
 * give its arguments and run it. Every request goes through the playground's forwarder on this
 * origin, so any MCP server is reachable without CORS.
 */

interface DemoServer {
  name: string;
  title: string;
  url: string;
}

const connectForm = byId<HTMLFormElement>('connect-form');
const serverChoice = byId<HTMLSelectElement>('server-choice');
const serverUrl = byId<HTMLInputElement>('server-url');
const eraChoice = byId<HTMLSelectElement>('era');
const asAppHost = byId<HTMLInputElement>('as-app-host');
const noElicitation = byId<HTMLInputElement>('no-elicitation');
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

let client: Client | undefined;
let chosen: { choice: Choice; form: ArgumentsForm } | undefined;
let running: { entry: CallEntry; abort: AbortController } | undefined;
const roots = createRootsEditor(asks);

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

serverChoice.addEventListener('change', () => {
  if (serverChoice.value !== '') serverUrl.value = serverChoice.value;
  else serverUrl.focus();
});
serverUrl.addEventListener('input', () => {
  const listed = [...serverChoice.options].find((option) => option.value === serverUrl.value);
  serverChoice.value = listed?.value ?? '';
});

function setConnected(connected: boolean): void {
  connectButton.disabled = connected;
  disconnectButton.disabled = !connected;
  serverChoice.disabled = connected;
  serverUrl.disabled = connected;
  eraChoice.disabled = connected;
  asAppHost.disabled = connected;
  noElicitation.disabled = connected;
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

/** The client the connect form describes: which era, and what kind of host. */
function clientOptions(mode: ClientMode): ClientOptions {
  const base: ClientOptions = {
    mode,
    clientInfo: { name: 'parley-playground', version: '0.0.0' },
    // The forwarder serves only requests that carry it: no link can.
    headers: { [FORWARDER_HEADER]: FORWARDER_HEADER_VALUE },
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

async function connect(): Promise<void> {
  showError(undefined);
  const target = serverUrl.value.trim();
  if (!/^https?:\/\//.test(target) || !URL.canParse(target)) {
    showError('The URL must be an http:// or https:// URL, e.g. http://127.0.0.1:3001/mcp.');
    serverUrl.focus();
    return;
  }
  const next = new Client(proxied(target), clientOptions(eraChoice.value as ClientMode));
  connectButton.disabled = true;
  connectionStatus.textContent = `Connecting to ${target}…`;
  try {
    await next.connect();
  } catch (error) {
    connectButton.disabled = false;
    connectionStatus.textContent = 'Not connected.';
    showError(connectionProblem(error, target));
    await next.close().catch(() => {});
    return;
  }
  client = next;
  connectionStatus.textContent = `Connected to ${target}: ${next.era} era (${next.protocolVersion}).`;
  setConnected(true);
  const catalogue = await catalogueOf(next);
  renderCatalogue(catalogue, choose);
  if (catalogue.problems.length > 0) showError(catalogue.problems.join(' '));
}

async function disconnect(): Promise<void> {
  running?.abort.abort(new Error('disconnected'));
  const closing = client;
  client = undefined;
  setConnected(false);
  connectionStatus.textContent = 'Not connected.';
  await closing?.close().catch((error: unknown) => showError(describeError(error)));
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
  } catch (error) {
    entry.fail(error);
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

void loadServers();
