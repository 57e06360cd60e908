import { Server } from '@modelcontextprotocol/server';

import { registerCompletion } from './completion.ts';
import { registerPrompts } from './serving/prompts.ts';
import { registerResources, registerSubscriptions } from './serving/resources.ts';
import { RoundRunner } from './serving/roundRunner.ts';
import {
  capabilitiesOf,
  hasResources,
  type ServerRuntime,
  type ServingUnit,
} from './serving/runtime.ts';
import { registerTools } from './serving/tools.ts';

export type { ServerRuntime, ServingUnit } from './serving/runtime.ts';

/**
 * Build the SDK server for one serving unit (a handshake-era session, or one modern request),
 * with Parley's handlers for every method. The SDK keeps the protocol (framing, negotiation,
 * discover, wire validation); Parley owns dispatch, the era gate, sealing and the author's context.
 */
export function buildSdkServer(runtime: ServerRuntime, unit: ServingUnit): Server {
  const server = new Server(runtime.info, {
    capabilities: capabilitiesOf(runtime),
    ...(runtime.instructions !== undefined ? { instructions: runtime.instructions } : {}),
    // The era gate is Parley's: an ask on a handshake connection is an error, unless the author
    // opted into the bridge, which lets the SDK push the asks and re-enter the handler.
    inputRequired: { legacyShim: runtime.eraBridge, maxRounds: 10 },
  });
  const runner = new RoundRunner(server, runtime, unit);
  registerTools(server, runner);
  registerPrompts(server, runner);
  registerResources(server, runner);
  if (runtime.prompts.size > 0 || runtime.templates.length > 0) {
    registerCompletion(server, runtime.prompts, runtime.templates);
  }
  if (runner.era === 'handshake') {
    runtime.changes.track(server);
    if (hasResources(runtime)) registerSubscriptions(server, runner);
  }
  return server;
}
