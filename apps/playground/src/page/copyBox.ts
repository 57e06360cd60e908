import { byId } from './dom.ts';

/**
 * Where a copied command goes: the clipboard when the browser allows it, and always a text box
 * the person can select it from (the clipboard needs permission, and a secure context).
 */

const box = byId('curl-box');
const status = byId('curl-status');
const text = byId<HTMLTextAreaElement>('curl-text');

export function copy(command: string): void {
  text.value = command;
  box.hidden = false;
  status.textContent = 'Copying…';
  const clipboard = navigator.clipboard as Clipboard | undefined;
  (clipboard?.writeText(command) ?? Promise.reject(new Error('no clipboard'))).then(
    () => (status.textContent = 'Copied to the clipboard; also below.'),
    () => {
      status.textContent = 'The clipboard is not available here: select the command below.';
      text.focus();
      text.select();
    },
  );
}
