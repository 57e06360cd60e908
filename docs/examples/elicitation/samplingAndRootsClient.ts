// #region client
import { Client, type ClientMode } from '@parley/client';

import { createServer } from './samplingAndRoots.ts';

export async function survey(mode: ClientMode = 'auto'): Promise<string> {
  await using client = new Client(createServer(), {
    mode,
    elicitationHandler: () => 'an audit',
    samplingHandler: async () => 'A TypeScript monorepo.', // your model call goes here
    roots: [{ uri: 'file:///home/me/project', name: 'project' }],
  });
  await client.connect();

  const result = await client.callTool(
    mode === 'handshake' ? 'describe_roots' : 'survey_workspace',
  );
  return result.content
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('');
}
// #endregion client
