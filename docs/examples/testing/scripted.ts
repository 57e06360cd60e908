// #region scripted
import type { ElicitationAnswer, ElicitationHandler } from '@parley/client';

/**
 * An elicitation handler that answers from a script, by question. A question the script does
 * not expect fails the call, so a test notices when the server asks something new.
 */
export function scripted(answers: Record<string, ElicitationAnswer>) {
  const asked: string[] = [];
  const handler: ElicitationHandler = (message) => {
    asked.push(message);
    const answer = answers[message];
    if (answer === undefined)
      throw new Error(`Unexpected question: ${message}`);
    return answer;
  };
  return { handler, asked };
}
// #endregion scripted
