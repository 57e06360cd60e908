/**
 * The names the server, its middleware and its warnings share for what a request is served by
 * and which call it belongs to: one `HandlerInfo`, one `Flow`, everywhere.
 */

/** What kind of handler a request is for, or an error is about. */
export type HandlerKind = 'tool' | 'prompt' | 'resource' | 'resourceTemplate';

const KIND_LABEL: Record<HandlerKind, string> = {
  tool: 'Tool',
  prompt: 'Prompt',
  resource: 'Resource',
  resourceTemplate: 'Resource template',
};

/** A handler as messages name it: `Tool 'book_flight'`, `Resource template 'file:///{path}'`. */
export function handlerLabel(handler: { kind: HandlerKind; name: string }): string {
  return `${KIND_LABEL[handler.kind]} '${handler.name}'`;
}

/** The handler a request is for. */
export interface HandlerInfo {
  kind: HandlerKind;
  /** Tool or prompt name, or the resource URI (for a template: the URI read). */
  name: string;
  /** For a resource template: the template the URI matched (a bounded label for metrics). */
  uriTemplate?: string;
  /** The author marked this handler's final results as safe to cache (`cacheable: true`). */
  cacheable: boolean;
}

/** One logical call across its rounds. */
export interface Flow {
  /** The same for every round of one call, across replicas (it travels sealed in `requestState`). */
  id: string;
  /** 1 on the first round, then 2, 3, … */
  round: number;
  /** When the first round started (ms since the epoch), carried across rounds and replicas. */
  startedAt: number;
}
