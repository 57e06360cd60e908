import { Client, type ClientMode, type ElicitationAnswer, type RoundEvent } from '@parley/client';

/**
 * The downstream person of the tests, as a Parley `Client`: it answers each question by its
 * message, writes the model's reply for sampling, and lists one root; every round is recorded.
 */

export const ANSWERS: Record<string, ElicitationAnswer> = {
  'Your name?': { name: 'Ada' },
  'Where to?': { name: 'Lisbon' },
  'When to Lisbon?': { name: 'Friday' },
  'Whose haiku?': { name: 'Basho' },
  'Whose notes?': { name: 'Grace' },
  'Sign in, please': { action: 'accept' },
};

export interface Downstream {
  client: Client;
  rounds: RoundEvent[];
  messages: string[];
}

export function downstreamClient(
  url: string,
  mode: ClientMode,
  answer: (message: string) => ElicitationAnswer | Promise<ElicitationAnswer> = (message) =>
    ANSWERS[message] ?? { action: 'decline' },
): Downstream {
  const rounds: RoundEvent[] = [];
  const messages: string[] = [];
  const client = new Client(url, {
    mode,
    elicitationHandler: (message) => {
      messages.push(message);
      return answer(message);
    },
    samplingHandler: (messages) => {
      const first = messages[0]?.content;
      const text = first !== undefined && 'text' in first ? first.text : '?';
      return {
        role: 'assistant',
        content: { type: 'text', text: `summary of "${text}"` },
        model: 'test',
      };
    },
    roots: [{ uri: 'file:///work', name: 'work' }],
    onRound: (event) => rounds.push(event),
  });
  return { client, rounds, messages };
}
