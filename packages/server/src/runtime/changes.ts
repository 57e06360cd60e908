import type { Server, ServerNotifier } from '@modelcontextprotocol/server';

/**
 * Telling connected clients that something changed: the tool, prompt or resource lists, or one
 * resource a client subscribed to. Handshake-era sessions get notifications on their session;
 * modern clients get them on the `subscriptions/listen` streams of the HTTP endpoint.
 */

/** Which list changed. */
export type ListKind = 'tools' | 'prompts' | 'resources';

export class ChangeNotifier {
  /** Live handshake-era sessions, with the resource URIs each subscribed to. */
  readonly #sessions = new Map<Server, Set<string>>();
  readonly #streams = new Set<ServerNotifier>();

  /** Follow a handshake-era session until it closes. */
  track(server: Server): void {
    this.#sessions.set(server, new Set());
    const previous = server.onclose;
    server.onclose = () => {
      this.#sessions.delete(server);
      previous?.();
    };
  }

  /** Follow the modern subscription streams of an HTTP endpoint. */
  addStreams(notifier: ServerNotifier): void {
    this.#streams.add(notifier);
  }

  subscribe(server: Server, uri: string): void {
    this.#sessions.get(server)?.add(uri);
  }

  unsubscribe(server: Server, uri: string): void {
    this.#sessions.get(server)?.delete(uri);
  }

  /** How many handshake-era sessions are connected. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  listChanged(kind: ListKind): void {
    for (const server of this.#sessions.keys()) {
      const sent =
        kind === 'tools'
          ? server.sendToolListChanged()
          : kind === 'prompts'
            ? server.sendPromptListChanged()
            : server.sendResourceListChanged();
      // A session that is going away cannot be told; that is not the caller's problem.
      sent.catch(() => {});
    }
    for (const streams of this.#streams) {
      if (kind === 'tools') streams.toolsChanged();
      else if (kind === 'prompts') streams.promptsChanged();
      else streams.resourcesChanged();
    }
  }

  resourceUpdated(uri: string): void {
    for (const [server, uris] of this.#sessions) {
      if (uris.has(uri)) server.sendResourceUpdated({ uri }).catch(() => {});
    }
    for (const streams of this.#streams) streams.resourceUpdated(uri);
  }
}
