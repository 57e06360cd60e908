// The built package, as a user's `import` and `require` load it (plain `node`, no source
// condition): each format serves a modern round, a handshake `initialize` and a round through
// middleware installed late, over real HTTP; and a modern-era server reads only what the modern
// path needs — the handshake session code and the SDK stay on disk until a handshake client
// arrives, `@parley/middleware` until middleware is installed. Run by `pnpm check` after the build.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

// One child per format: a fresh module graph, and `require` for the CJS build.
const child = (format) => `
const load = ${format === 'cjs' ? '(id) => Promise.resolve(require(id))' : '(id) => import(id)'};
(async () => {
  const { ParleyServer, elicitRequest, inputRequired } = await load('@parley/server');
  const { z } = await load('zod');
  const mcp = new ParleyServer({ name: 'smoke', onWarning: () => {} });
  const ask = elicitRequest('Where?', z.object({ destination: z.string() }));
  mcp.tool('book', (_args, ctx) => {
    const where = ctx.answer('destination', ask);
    return where === undefined ? inputRequired({ inputRequests: { destination: ask } }) : 'Booked';
  });
  const { url, close } = await mcp.run({ transport: 'http', port: 0, host: '127.0.0.1' });
  const post = async (body, headers) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.text() };
  };
  const callBook = () => post(
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'book', arguments: {}, _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } } } },
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'book' },
  );
  const modern = await callBook();
  // CommonJS lists what it has loaded; ESM has no such list.
  const beforeHandshake = ${format === 'cjs' ? 'Object.keys(require.cache)' : 'null'};
  const handshake = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {
    protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'smoke', version: '1' } } });
  const afterHandshake = ${format === 'cjs' ? 'Object.keys(require.cache)' : 'null'};
  let middlewareRuns = 0;
  mcp.use((_context, callNext) => { middlewareRuns++; return callNext(); });
  const withMiddleware = await callBook();
  const afterMiddleware = ${format === 'cjs' ? 'Object.keys(require.cache)' : 'null'};
  await close();
  process.stdout.write(JSON.stringify({
    modern, handshake, withMiddleware, middlewareRuns, beforeHandshake, afterHandshake, afterMiddleware,
  }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

for (const format of ['esm', 'cjs']) {
  const out = execFileSync(
    process.execPath,
    [`--input-type=${format === 'cjs' ? 'commonjs' : 'module'}`, '-e', child(format)],
    { cwd: packageDir, encoding: 'utf8', timeout: 30_000 },
  );
  const { modern, handshake, withMiddleware, middlewareRuns, ...loaded } = JSON.parse(out);
  assert.equal(modern.status, 200, `${format}: modern round status`);
  assert.equal(JSON.parse(modern.body).result?.resultType, 'input_required', `${format}: modern`);
  assert.equal(handshake.status, 200, `${format}: initialize status`);
  assert.match(handshake.body, /"protocolVersion":"2025-11-25"/, `${format}: initialize`);
  assert.equal(JSON.parse(withMiddleware.body).result?.resultType, 'input_required', format);
  assert.equal(middlewareRuns, 1, `${format}: middleware installed after start runs`);
  if (loaded.beforeHandshake !== null) {
    const matching = (paths, pattern) => paths.filter((path) => pattern.test(path));
    const sdk = /sessionServer-|sdkModule-|@modelcontextprotocol[\\/]server/;
    const middleware = /[\\/]middleware[\\/]dist[\\/]/;
    assert.deepEqual(matching(loaded.beforeHandshake, sdk), [], `${format}: SDK before handshake`);
    assert.deepEqual(
      matching(loaded.afterHandshake, middleware),
      [],
      `${format}: middleware early`,
    );
    // And the checks can see them: the first handshake client loads the session server and the
    // SDK, the first middleware the middleware package.
    assert.ok(matching(loaded.afterHandshake, sdk).length >= 2, `${format}: SDK for the handshake`);
    assert.ok(matching(loaded.afterMiddleware, middleware).length > 0, `${format}: middleware`);
  }
  console.log(`dist smoke (${format}): modern round and handshake initialize served`);
}
