/**
 * The public API of @parley/testing. Everything exported here is public and versioned: add to it
 * deliberately, with a changeset.
 */

export { ScriptedUser, scriptedUser } from './scriptedUser.ts';
export type { AskMatch, ElicitationReply, RuleOptions, SamplingReply } from './scriptedUser.ts';
export { AskedMismatchError, expectAsked } from './asked.ts';
export type { Asked, ExpectedAsk } from './asked.ts';
export { eraMatrix } from './eraMatrix.ts';
export type {
  EraMatrixOptions,
  MatrixCell,
  MatrixConnectOptions,
  MatrixConnection,
  MatrixTransport,
} from './eraMatrix.ts';
