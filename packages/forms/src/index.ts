/**
 * The public API of @parley/forms: every elicitation request rendered in the browser, without a
 * framework. Everything exported here is public and versioned: add to it deliberately, with a
 * changeset.
 *
 * Importing this module defines the `<parley-elicitation>` custom element (once per page).
 */

import './defineElement.ts';

export { renderElicitation } from './renderElicitation.ts';
export type { RenderOptions } from './renderElicitation.ts';
export { ParleyElicitationElement } from './element.ts';
export { ANSWER_EVENT, ELEMENT_NAME } from './types.ts';
export type { ElicitRequestParams } from './types.ts';
export { checkUrl } from './urlSafety.ts';
export type { UrlCheck } from './urlSafety.ts';

// The wire shapes a host handles around a form, so one import serves it.
export type {
  ElicitFormParams,
  ElicitResult,
  ElicitUrlParams,
  ElicitationSchema,
} from '@parley/core';
export type { FieldDescriptor } from '@parley/schema';
