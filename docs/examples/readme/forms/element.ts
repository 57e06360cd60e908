import '@parley/forms';
import type { ElicitRequestParams, ElicitResult } from '@parley/forms';

/** Shows a request at the end of the page; `respond` gets the person's answer. */
export function showRequest(
  params: ElicitRequestParams,
  respond: (result: ElicitResult) => void,
): void {
  const element = document.createElement('parley-elicitation');
  element.params = params; // a property, not an attribute
  element.addEventListener('parley-answer', (event) =>
    respond(event.detail),
  );
  document.body.append(element);
}
