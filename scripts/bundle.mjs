#!/usr/bin/env node
// Bundles a package into dist/ with esbuild. `server`: src/cli.ts -> dist/server.cjs, every
// dependency inlined except native addons, so `npx` installs little, and dist/cli.js, the bin
// that runs it with a code cache. `harness`: the demo, bench and conformance runners.
import { build, transform } from 'esbuild';
import { chmod, rm } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { dirname, resolve as resolvePath } from 'node:path';

const kind = process.argv[2];
const cwd = process.cwd();
// CommonJS dependencies bundled into ESM still call require(); give them one.
const banner = [
  "import { createRequire as __mcpCreateRequire } from 'node:module';",
  'const require = __mcpCreateRequire(import.meta.url);',
].join('\n');

// The SDK's Server imports Ajv to validate elicitation answers unless given a validator;
// the base always gives one, so Ajv (about 190 KB evaluated at start-up) stays out of
// server bins. (The harness bundles keep it: the SDK client validates tool results.)
const withoutAjv = {
  name: 'without-ajv',
  setup(build) {
    build.onResolve({ filter: /validation\/ajv-provider\.js$/ }, () => ({ path: 'ajv-provider', namespace: 'without-ajv' }));
    // SDK v2 picks its default validator through this runtime shim.
    build.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, () => ({ path: 'server-shims', namespace: 'without-ajv' }));
    build.onLoad({ filter: /.*/, namespace: 'without-ajv' }, ({ path }) => ({
      contents:
        path === 'server-shims'
          ? "import process from 'node:process'; export { process }; export class DefaultJsonSchemaValidator { constructor() { throw new Error('Ajv is not bundled: pass jsonSchemaValidator'); } }"
          : "export class AjvJsonSchemaValidator { constructor() { throw new Error('Ajv is not bundled: pass jsonSchemaValidator'); } }",
      loader: 'js',
    }));
  },
};

// zod re-exports every locale (about 300 KB of the bundle) as a namespace that esbuild
// cannot drop; the servers use only the English messages zod configures by default.
const englishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](core|classic)$/.test(args.resolveDir) ? { path: resolvePath(args.resolveDir, '../locales/en.js'), namespace: 'zod-en' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-en' }, ({ path }) => ({
      contents: `export { default as en } from ${JSON.stringify(path)};`,
      resolveDir: dirname(path),
      loader: 'js',
    }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Native addons cannot be bundled; they are installed as dependencies.
  external: ['better-sqlite3', 'fsevents'],
  legalComments: 'none',
  logLevel: 'warning',
  minifySyntax: true,
  minifyWhitespace: true,
  keepNames: false,
  sourcemap: false,
};

await rm(`${cwd}/dist`, { recursive: true, force: true });
// A worker thread cannot import the bundle, so code a worker needs from a dependency is
// inlined as text (see shared/src/re2js.ts), minified: its comments
// would otherwise carry `import('./Machine.js')` type notes into the bin, and the text is
// a third of the size.
async function sourceOf(pkg) {
  let file;
  try {
    // Resolved from the base, which depends on it for every server.
    file = createRequire(new URL('../shared/package.json', import.meta.url)).resolve(pkg);
  } catch {
    return 'undefined';
  }
  const { code } = await transform(readFileSync(file, 'utf8'), { minify: true, format: 'cjs', target: 'node20', loader: 'js' });
  return JSON.stringify(code);
}

if (kind === 'server') {
  // Two files: dist/server.cjs, the server and every dependency as one CommonJS script,
  // and dist/cli.js, the bin, which runs that script through a V8 code cache
  // (shared/src/compile-cache.ts). The cache is keyed by a hash of the script, fixed here.
  await build({
    ...common,
    format: 'cjs',
    define: {
      MCP_BUNDLED_RE2JS_SOURCE: await sourceOf('re2js'),
      // The bin's URL: the bundle runs only through the bin, which passes it.
      'import.meta.url': '__mcpEntryUrl',
    },
    entryPoints: { server: 'src/cli.ts' },
    outExtension: { '.js': '.cjs' },
    plugins: [withoutAjv, englishOnly],
    outdir: 'dist',
    // One function expression, which the bin compiles as the file is (BUNDLE_HEAD and
    // BUNDLE_TAIL in shared/src/compile-cache.ts spell the same text; repo-layout.test.ts
    // checks it), so V8 keeps one copy of the text. The sources are ES modules, so strict: the
    // directive must come first in the function (esbuild's own "use strict" follows the
    // banner, where it would be a plain string).
    banner: {
      js: "(function (exports, require, module, __filename, __dirname, __mcpEntryUrl) {'use strict';",
    },
    footer: { js: '\n})' },
  });
  // The bin reads the script as text: one character beyond ASCII anywhere in it makes V8
  // hold all of it as two-byte text (twice the memory for as long as the server runs, and
  // slower to read at every start). esbuild escapes strings but not regular expression
  // literals, so a source must write those with \u escapes.
  const script = readFileSync(`${cwd}/dist/server.cjs`, 'latin1');
  const wide = /[^\x00-\x7f]/.exec(script);
  if (wide) {
    throw new Error(`dist/server.cjs is not ASCII at offset ${wide.index}: ...${script.slice(Math.max(0, wide.index - 60), wide.index + 20)}... (write the character as a \\u escape in its source)`);
  }
  const pkgName = JSON.parse(readFileSync(`${cwd}/package.json`, 'utf8')).name;
  const buildId = createHash('sha256').update(readFileSync(`${cwd}/dist/server.cjs`)).digest('hex').slice(0, 16);
  await build({
    ...common,
    stdin: {
      contents: [
        "import { beginLeanStart } from '@mcp-reference/shared/lean-start';",
        "import { runBundle } from '@mcp-reference/shared/compile-cache';",
        // First, so that V8 is held back while the bundle loads (see shared/src/lean-start.ts).
        'beginLeanStart();',
        `runBundle({ bundle: new URL('./server.cjs', import.meta.url), entry: import.meta.url, buildId: ${JSON.stringify(buildId)}, name: ${JSON.stringify(pkgName)} });`,
      ].join('\n'),
      resolveDir: cwd,
      sourcefile: 'bin.ts',
      loader: 'ts',
    },
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
  });
  await chmod(`${cwd}/dist/cli.js`, 0o755);
} else if (kind === 'harness') {
  const entryPoints = {};
  for (const [name, file] of [
    ['demo', 'demo/run.ts'],
    ['bench', 'bench/run.ts'],
    ['conformance', 'conformance/run.ts'],
  ]) {
    if (existsSync(`${cwd}/${file}`)) entryPoints[name] = file;
  }
  await build({ ...common, entryPoints, outdir: 'dist', banner: { js: banner } });
} else {
  console.error('usage: bundle.mjs server|harness');
  process.exit(2);
}
