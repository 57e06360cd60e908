import type { InputRequest } from './inputRequired.ts';
import type { ClientFeature } from './errors/errorClasses.ts';
import type { ClientCapabilities } from './wireTypes.ts';

/** The capabilities a client must have declared before a server may send it `request`. */
export function requiredCapabilities(request: InputRequest): ClientCapabilities {
  switch (request.method) {
    case 'elicitation/create':
      return request.params.mode === 'url'
        ? { elicitation: { url: {} } }
        : { elicitation: { form: {} } };
    case 'sampling/createMessage':
      return { sampling: {} };
    case 'roots/list':
      return { roots: {} };
  }
}

/**
 * True when `declared` covers what `request` needs. An `elicitation: {}` with neither mode
 * counts as form-only, as the spec keeps it for backward compatibility.
 */
export function supportsRequest(
  declared: ClientCapabilities | undefined,
  request: InputRequest,
): boolean {
  switch (request.method) {
    case 'elicitation/create': {
      const elicitation = declared?.elicitation;
      if (elicitation === undefined) return false;
      const declaresAMode = elicitation.form !== undefined || elicitation.url !== undefined;
      return request.params.mode === 'url'
        ? elicitation.url !== undefined
        : elicitation.form !== undefined || !declaresAMode;
    }
    case 'sampling/createMessage':
      return declared?.sampling !== undefined;
    case 'roots/list':
      return declared?.roots !== undefined;
  }
}

/**
 * The union of what `requests` need and `declared` lacks, in the shape the modern error
 * `-32021` carries as `requiredCapabilities`; `undefined` when nothing is missing.
 */
export function missingCapabilities(
  declared: ClientCapabilities | undefined,
  requests: Iterable<InputRequest>,
): ClientCapabilities | undefined {
  let missing: ClientCapabilities | undefined;
  for (const request of requests) {
    if (supportsRequest(declared, request)) continue;
    const needed = requiredCapabilities(request);
    missing ??= {};
    if (needed.elicitation) missing.elicitation = { ...missing.elicitation, ...needed.elicitation };
    if (needed.sampling) missing.sampling = {};
    if (needed.roots) missing.roots = {};
  }
  return missing;
}

/**
 * The feature a set of required capabilities stands for, as errors name it ("URL elicitation
 * not supported by this client"): URL elicitation only when form is not also needed.
 */
export function clientFeatureOf(required: ClientCapabilities): ClientFeature {
  if (required.elicitation?.url !== undefined && required.elicitation.form === undefined) {
    return 'URL elicitation';
  }
  if (required.elicitation !== undefined) return 'elicitation';
  if (required.sampling !== undefined) return 'sampling';
  return 'roots';
}
