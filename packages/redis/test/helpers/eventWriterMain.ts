/**
 * A process that stores a stream's events in Redis and exits, the way a replica that served a
 * stream and then went away would: prints the event ids it stored, as JSON, on stdout.
 *
 * Env: REDIS_PORT, STREAM (the stream id), COUNT (how many progress notifications).
 */
import { createClient } from 'redis';

import { createRedisEventStore } from '../../src/index.ts';

const client = createClient({ url: `redis://127.0.0.1:${process.env.REDIS_PORT}` });
client.on('error', () => {});
await client.connect();
const store = createRedisEventStore(client);
const stream = process.env.STREAM ?? 'stream';
const ids: string[] = [await store.storeEvent(stream, {} as never)];
for (let n = 0; n < Number(process.env.COUNT ?? 10); n++) {
  ids.push(
    await store.storeEvent(stream, {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 't', progress: n },
    }),
  );
}
process.stdout.write(`${JSON.stringify(ids)}\n`);
client.destroy();
