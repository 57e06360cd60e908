// #region client
import { Client, type ClientMode } from '@parley/client';

import { createServer } from './promptsAndResources.ts';

export async function readReports(
  mode: ClientMode = 'auto',
): Promise<void> {
  await using client = new Client(createServer(), {
    mode,
    elicitationHandler: (message, responseType) =>
      message.startsWith('Which quarter')
        ? responseType({ quarter: 'Q3' })
        : responseType('USD'),
  });
  await client.connect();

  const prompt = await client.getPrompt('summarize');
  console.log(prompt.messages[0]?.content);

  const report = await client.readResource('report://summary');
  console.log(report.contents[0]);

  const revenue = await client.readResource('report://Q4/revenue');
  console.log(revenue.contents[0]);
}
// #endregion client
