import { defineConfig } from 'vitepress';

/**
 * The Parley docs site. Every code block on a page is the copy of a file in `docs/examples/`
 * (type-checked and run by its tests) that follows an `<!-- include: … -->` marker, written in by
 * `pnpm readme` (scripts/markdownIncludes.mjs), so GitHub shows the same code; `api/` is generated
 * by typedoc from the packages' TSDoc before every `dev` and `build`, and never committed.
 */

// In the order users reach for them: the server and the client first.
const packages = [
  'server',
  'client',
  'cli',
  'forms',
  'proxy',
  'middleware',
  'core',
  'schema',
  'state-sealing',
  'redis',
  'testing',
];

export default defineConfig({
  title: 'Parley',
  description:
    'Elicitation for MCP servers and clients in TypeScript, in both protocol eras, written once with ctx.ask().',
  lang: 'en-US',
  // Inside node_modules, so linters, formatters and git never see Vite's pre-bundled deps.
  cacheDir: './node_modules/.vitepress/cache',
  // typedoc.md is the introduction typedoc puts on the generated api/index.md.
  srcExclude: ['examples/**', 'test/**', '**/README.md', 'typedoc.md'],
  cleanUrls: true,
  head: [['link', { rel: 'icon', type: 'image/svg+xml', href: '/favicon.svg' }]],
  // The API pages are large; their chunks are expected to be.
  vite: { build: { chunkSizeWarningLimit: 2048 } },
  themeConfig: {
    logo: '/favicon.svg',
    nav: [
      { text: 'Guide', link: '/guide/getting-started', activeMatch: '/guide/' },
      { text: 'API reference', link: '/api/', activeMatch: '/api/' },
    ],
    sidebar: [
      {
        text: 'Guide',
        items: [
          { text: 'Getting started', link: '/guide/getting-started' },
          { text: 'User elicitation', link: '/guide/elicitation' },
          { text: 'Clients that cannot ask', link: '/guide/ask-fallback' },
          { text: 'Reaching every host', link: '/guide/hosts' },
          { text: 'The per-era layer', link: '/guide/per-era' },
          { text: 'Schema libraries', link: '/guide/schema-libraries' },
          { text: 'Middleware', link: '/guide/middleware' },
          { text: 'Long-running tools: tasks', link: '/guide/tasks' },
          { text: 'The client', link: '/guide/client' },
          { text: 'Forms in the browser', link: '/guide/forms' },
          { text: 'The playground', link: '/guide/playground' },
          { text: 'Proxy', link: '/guide/proxy' },
          { text: 'Deployment', link: '/guide/deployment' },
          { text: 'Troubleshooting', link: '/guide/troubleshooting' },
          { text: 'Errors', link: '/guide/errors' },
          { text: 'Telemetry', link: '/guide/telemetry' },
          { text: 'Security', link: '/guide/security' },
          { text: 'Testing your server', link: '/guide/testing' },
          { text: 'Coming from FastMCP', link: '/guide/coming-from-fastmcp' },
          { text: 'Coming from the MCP SDK', link: '/guide/coming-from-the-sdk' },
        ],
      },
      {
        text: 'API reference',
        items: [
          { text: 'Overview', link: '/api/' },
          ...packages.map((name) => ({ text: `@parley/${name}`, link: `/api/${name}` })),
        ],
      },
    ],
    outline: { level: [2, 3] },
    search: { provider: 'local' },
    footer: { message: 'Parley is released under the MIT License.' },
  },
});
