import type { ElicitFormParams, ElicitUrlParams } from '@parley/core';

/**
 * The `params` of an `elicitation/create` request, in either mode: a form (`mode` `'form'` or
 * absent) or a URL to open (`mode: 'url'`). The same shape in 2025-11-25 and 2026-07-28.
 */
export type ElicitRequestParams = ElicitFormParams | ElicitUrlParams;

/** The name the custom element is defined under. */
export const ELEMENT_NAME = 'parley-elicitation';

/** The event the element dispatches (bubbling, composed) once the person has answered. */
export const ANSWER_EVENT = 'parley-answer';
