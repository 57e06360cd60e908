import { byId } from './dom.ts';
import type { ServerRecord } from './history.ts';

/**
 * The connect form's controls: which transport (a URL through the forwarder, or a command the
 * playground starts), the target, the era, the kind of host and the authorization header.
 */

export const transportChoices =
  document.querySelectorAll<HTMLInputElement>('input[name="transport"]');
export const serverChoice = byId<HTMLSelectElement>('server-choice');
export const serverUrl = byId<HTMLInputElement>('server-url');
export const serverCommand = byId<HTMLInputElement>('server-command');
export const eraChoice = byId<HTMLSelectElement>('era');
export const asAppHost = byId<HTMLInputElement>('as-app-host');
export const noElicitation = byId<HTMLInputElement>('no-elicitation');
export const authorization = byId<HTMLInputElement>('authorization');
export const rememberAuthorization = byId<HTMLInputElement>('remember-authorization');

/** Every control that describes the connection: fixed while connected. */
export const connectionControls = [
  serverChoice,
  serverUrl,
  serverCommand,
  eraChoice,
  asAppHost,
  noElicitation,
  authorization,
  rememberAuthorization,
  ...transportChoices,
];

export function transport(): 'http' | 'stdio' {
  return [...transportChoices].find((choice) => choice.checked)?.value === 'stdio'
    ? 'stdio'
    : 'http';
}

/** Show the fields of the chosen transport only. */
export function showTransport(): void {
  for (const field of document.querySelectorAll<HTMLElement>('[data-transport]')) {
    field.hidden = field.dataset.transport !== transport();
  }
}
for (const choice of transportChoices) choice.addEventListener('change', showTransport);

serverChoice.addEventListener('change', () => {
  if (serverChoice.value !== '') serverUrl.value = serverChoice.value;
  else serverUrl.focus();
});
serverUrl.addEventListener('input', () => {
  const listed = [...serverChoice.options].find((option) => option.value === serverUrl.value);
  serverChoice.value = listed?.value ?? '';
});

/** Fill the form as `record` had it. */
export function fillConnectForm(record: ServerRecord): void {
  for (const choice of transportChoices) {
    choice.checked = choice.value === (record.kind === 'command' ? 'stdio' : 'http');
  }
  showTransport();
  if (record.kind === 'command') serverCommand.value = record.target;
  else serverUrl.value = record.target;
  serverUrl.dispatchEvent(new Event('input'));
  eraChoice.value = record.era;
  asAppHost.checked = record.asAppHost;
  noElicitation.checked = record.noElicitation;
  authorization.value = record.authorization ?? '';
  rememberAuthorization.checked = record.authorization !== undefined;
}
