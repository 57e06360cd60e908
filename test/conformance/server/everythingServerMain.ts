// Runs the everything server over HTTP on 127.0.0.1; prints its URL on the first stdout line.
import { createEverythingServer } from './everythingServer.ts';

const port = Number(process.env.PORT ?? 0);
const running = await createEverythingServer().run({ transport: 'http', host: '127.0.0.1', port });
process.stdout.write(`${running.url}\n`);
const stop = () => void running.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
