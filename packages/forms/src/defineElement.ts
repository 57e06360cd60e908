import { ParleyElicitationElement } from './element.ts';
import { ELEMENT_NAME } from './types.ts';

// The one side effect of the package (listed in package.json `sideEffects`). Idempotent: a page
// that loads two copies of the package (two bundles, a playground and an app) keeps the first.
// Skipped where there is no custom element registry (Node, a server-side render).
if (typeof customElements !== 'undefined' && customElements.get(ELEMENT_NAME) === undefined) {
  customElements.define(ELEMENT_NAME, ParleyElicitationElement);
}
