// The bin's code cache (compile-cache.ts): used on the next launch, refused when anyone but
// this user could have written it, when it is damaged or a symlink, and never written into a
// directory others can write. Real files in a temporary directory; the "bundle" is a small
// CommonJS script run in this process, as the bin runs dist/server.cjs.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath as fileURLToPathOf, pathToFileURL } from 'node:url';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUNDLE_HEAD, BUNDLE_TAIL, checksum, compileCacheDir, runBundle } from './compile-cache.js';

const posix = process.platform !== 'win32';
let root = '';
let cacheDir = '';
let bundle: URL;
const runs: string[] = [];

/** A script that records what it saw; a different `tag` is a different build. */
function writeBundle(tag: string): URL {
  const file = path.join(root, 'dist', 'server.cjs');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    wrapped(`'use strict';
     const { basename } = require('node:path');
     globalThis.__compileCacheRuns.push(${JSON.stringify(tag)} + ' ' + basename(__filename) + ' ' + __mcpEntryUrl);
     function work(n) { let s = 0; for (let i = 0; i < n; i++) s += i; return s; }
     module.exports = work(1000);`),
  );
  return pathToFileURL(file);
}

/** CommonJS code as scripts/bundle.mjs writes dist/server.cjs: one function expression. */
const wrapped = (code: string) => `${BUNDLE_HEAD}${code}${BUNDLE_TAIL}\n`;

const start = (id = 'build1', env: NodeJS.ProcessEnv = { MCP_COMPILE_CACHE: cacheDir }) =>
  runBundle({ bundle, entry: 'file:///bin/cli.js', buildId: id, name: '@mcp-reference/server-x', env });
const cacheFiles = () => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((f) => f.endsWith('.cache')) : []);
const cacheFile = () => path.join(cacheDir, cacheFiles()[0]!);

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'compile-cache-'));
  cacheDir = path.join(root, 'cache');
  runs.length = 0;
  (globalThis as { __compileCacheRuns?: string[] }).__compileCacheRuns = runs;
  bundle = writeBundle('v1');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the code cache checksum', () => {
  const payload = Buffer.from(Array.from({ length: 4099 }, (_, i) => (i * 31 + 7) & 0xff));

  it('changes when any one byte changes', () => {
    const original = checksum(payload);
    expect(original).toHaveLength(8);
    for (let i = 0; i < payload.length; i++) {
      const damaged = Buffer.from(payload);
      damaged[i] ^= 1 << i % 8;
      expect(checksum(damaged).equals(original), `byte ${i}`).toBe(false);
    }
  });

  it('changes with the length, even when the bytes cut or added are zeros', () => {
    const zeros = Buffer.alloc(64);
    const sums = [0, 1, 4, 60, 63, 64].map((n) => checksum(zeros.subarray(0, n)).toString('hex'));
    expect(new Set(sums).size).toBe(sums.length);
    expect(checksum(Buffer.concat([payload, Buffer.alloc(4)])).equals(checksum(payload))).toBe(false);
  });

  it('is the same for the same bytes wherever they sit in memory', () => {
    const shifted = Buffer.alloc(payload.length + 3);
    payload.copy(shifted, 3);
    expect(checksum(shifted.subarray(3)).equals(checksum(payload))).toBe(true);
  });
});

describe('the bin code cache', () => {
  it('runs the bundle with its file name and the bin URL, writes a private cache once, and uses it next time', () => {
    const first = start();
    expect(first.cache).toBe('miss');
    expect(runs).toEqual(['v1 server.cjs file:///bin/cli.js']);
    expect(cacheFiles()).toEqual([]);
    first.writeCache();
    first.writeCache();
    expect(cacheFiles()).toHaveLength(1);
    expect(cacheFiles()[0]).toMatch(new RegExp(`^_mcp-reference_server-x-build1-node${process.versions.node}-v8-.*-${process.arch}\\.cache$`));
    if (posix) {
      expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
      expect(statSync(cacheFile()).mode & 0o777).toBe(0o600);
    }
    expect(readdirSync(cacheDir)).toHaveLength(1);

    const second = start();
    expect(second.cache).toBe('used');
    expect(runs).toHaveLength(2);
    expect(runs[1]).toBe(runs[0]);
  });

  it('runs a script with text beyond ASCII as UTF-8 (an ASCII one is read as Latin-1: the same text, cheaper)', () => {
    bundle = writeBundle('v1 \u00e9\u5e7f\ud83d\ude00');
    // JSON.stringify writes these characters as they are: the script is not ASCII.
    expect(readFileSync(fileURLToPathOf(bundle)).some((byte) => byte > 0x7f)).toBe(true);
    start();
    expect(runs.at(-1)).toMatch(/^v1 \u00e9\u5e7f\ud83d\ude00 server\.cjs /);
  });

  it("keeps one file per build: another build does not read this one, and writing its own removes the build before's", () => {
    start('build1').writeCache();
    const [first] = cacheFiles();
    // Another server's cache, and this server's for another Node, stay.
    const otherServer = first!.replace('_mcp-reference_server-x-', '_mcp-reference_server-y-');
    const otherNode = first!.replace(`-node${process.versions.node}-`, '-node0.0.0-');
    writeFileSync(path.join(cacheDir, otherServer), 'x', { mode: 0o600 });
    writeFileSync(path.join(cacheDir, otherNode), 'x', { mode: 0o600 });
    bundle = writeBundle('v2');
    const second = start('build2');
    expect(second.cache).toBe('miss');
    expect(runs.at(-1)).toMatch(/^v2 /);
    second.writeCache();
    const left = cacheFiles();
    expect(left).not.toContain(first);
    expect(left).toEqual(expect.arrayContaining([otherServer, otherNode, first!.replace('-build1-', '-build2-')]));
    expect(left).toHaveLength(3);
  });

  it('refuses a damaged cache (one byte changed), runs the bundle from source and writes a good one', () => {
    start().writeCache();
    const data = readFileSync(cacheFile());
    data[data.length - 10] ^= 0xff;
    writeFileSync(cacheFile(), data);
    const run = start();
    expect(run.cache).toBe('miss');
    expect(runs.at(-1)).toMatch(/^v1 /);
    run.writeCache();
    expect(start().cache).toBe('used');
  });

  it('refuses a cache in another format (an earlier version wrote a SHA-256 first), and rewrites it', () => {
    start().writeCache();
    const data = readFileSync(cacheFile());
    data.write('sha2', 0, 'latin1');
    writeFileSync(cacheFile(), data);
    const run = start();
    expect(run.cache).toBe('miss');
    run.writeCache();
    expect(start().cache).toBe('used');
  });

  it('refuses a cache truncated to its digest or to nothing', () => {
    start().writeCache();
    writeFileSync(cacheFile(), readFileSync(cacheFile()).subarray(0, 8));
    expect(start().cache).toBe('miss');
    // Cut anywhere else: the checksum covers the length too.
    start().writeCache();
    writeFileSync(cacheFile(), readFileSync(cacheFile()).subarray(0, 48));
    expect(start().cache).toBe('miss');
    writeFileSync(cacheFile(), '');
    expect(start().cache).toBe('miss');
  });

  it.runIf(posix)('refuses a cache file others can write, and replaces it with a private one', () => {
    start().writeCache();
    const planted = cacheFile();
    chmodSync(planted, 0o666);
    const run = start();
    expect(run.cache).toBe('miss');
    run.writeCache();
    expect(statSync(planted).mode & 0o777).toBe(0o600);
    expect(start().cache).toBe('used');
  });

  it.runIf(posix)('does not follow a symlink planted in place of the cache file', () => {
    start().writeCache();
    const real = path.join(root, 'elsewhere.cache');
    const name = cacheFile();
    writeFileSync(real, readFileSync(name), { mode: 0o600 });
    rmSync(name);
    symlinkSync(real, name);
    expect(start().cache).toBe('miss');
  });

  it.runIf(posix)('neither reads nor writes a cache in a directory others can write', () => {
    start().writeCache();
    const good = readFileSync(cacheFile());
    chmodSync(cacheDir, 0o777);
    // A cache file is there, but anyone could have replaced it: not read...
    const run = start();
    expect(run.cache).toBe('miss');
    rmSync(cacheFile());
    run.writeCache();
    // ...and nothing is written into a directory anyone can write to.
    expect(cacheFiles()).toEqual([]);
    expect(good.length).toBeGreaterThan(32);
  });

  it('MCP_COMPILE_CACHE=off runs the bundle without reading or writing a cache', () => {
    for (const off of ['off', '0', 'false']) {
      const run = start('build1', { MCP_COMPILE_CACHE: off });
      expect(run.cache).toBe('off');
      run.writeCache();
    }
    expect(runs).toHaveLength(3);
    expect(existsSync(cacheDir)).toBe(false);
  });

  it("puts the cache in the user's cache folder by default, per platform", () => {
    const dir = compileCacheDir({ XDG_CACHE_HOME: '/x/cache', LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' });
    if (process.platform === 'win32') expect(dir).toBe(path.join('C:\\Users\\u\\AppData\\Local', 'mcp-reference', 'compile-cache'));
    else if (process.platform === 'darwin') expect(dir).toMatch(/Library[\\/]Caches[\\/]mcp-reference[\\/]compile-cache$/);
    else expect(dir).toBe(path.join('/x/cache', 'mcp-reference', 'compile-cache'));
    expect(compileCacheDir({ MCP_COMPILE_CACHE: '/somewhere' })).toBe('/somewhere');
    expect(compileCacheDir({ MCP_COMPILE_CACHE: 'OFF' })).toBeUndefined();
  });
});

describe('memory once the bundle runs', () => {
  // The server runs inside runBundle's call: whatever a frame below it still references (the
  // file's bytes, the cache's) lives as long as the server, at least until a full collection.
  it('holds neither the bundle file nor the code cache while the bundle runs', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const padding = 3 * 1024 * 1024;
    const file = fileURLToPathOf(bundle);
    writeFileSync(
      file,
      wrapped(`'use strict';
       globalThis.__compileCacheRuns.push(String(globalThis.__measure()));
       /* ${'x'.repeat(padding)} */`),
    );
    const held: number[] = [];
    // More than once: V8 frees the memory of dead ArrayBuffers on a background thread after a
    // full collection, and the next collection first waits for that to finish (on a busy machine
    // the first one's sweep was still pending when memory was read).
    const collect = () => {
      for (let i = 0; i < 3; i++) gc();
    };
    (globalThis as { __measure?: () => number }).__measure = () => {
      collect();
      return process.memoryUsage().arrayBuffers;
    };
    try {
      for (const expected of ['miss', 'used']) {
        runs.length = 0;
        collect();
        const before = process.memoryUsage().arrayBuffers;
        const run = start();
        expect(run.cache).toBe(expected);
        run.writeCache();
        held.push(Number(runs[0]) - before);
      }
    } finally {
      delete (globalThis as { __measure?: unknown }).__measure;
    }
    // Without the code cache and with it: well under the 3 MB the file's bytes alone take.
    for (const bytes of held) expect(bytes).toBeLessThan(padding / 3);
  });
});

describe('the bundle as the bin runs it', () => {
  it('keeps one copy of the bundle text: compiled as the file is, not wrapped into a second string', () => {
    const padding = 3 * 1024 * 1024;
    writeFileSync(
      fileURLToPathOf(bundle),
      // A function kept alive keeps its script, and the script its source.
      wrapped(`'use strict'; globalThis.__compileCacheKeep = () => 1; /* ${'x'.repeat(padding)} */`),
    );
    const largeObjects = () =>
      getHeapSpaceStatistics()
        .filter((space) => space.space_name === 'large_object_space' || space.space_name === 'new_large_object_space')
        .reduce((sum, space) => sum + space.space_used_size, 0);
    const before = largeObjects();
    try {
      expect(start().cache).toBe('miss');
      // A flattened copy of a 3 MB text would be a 3 MB string among V8's large objects.
      expect(largeObjects() - before).toBeLessThan(padding / 3);
    } finally {
      delete (globalThis as { __compileCacheKeep?: unknown }).__compileCacheKeep;
    }
  });

  it('refuses a file that is not a bundle built by scripts/bundle.mjs, running none of it', () => {
    const file = fileURLToPathOf(bundle);
    writeFileSync(file, "'use strict'; globalThis.__compileCacheRuns.push('plain script ran');");
    expect(() => start()).toThrow(/not a bundle built by scripts\/bundle\.mjs.*pnpm build/);
    writeFileSync(file, `${BUNDLE_HEAD} globalThis.__compileCacheRuns.push('cut short ran');`);
    expect(() => start()).toThrow(/not a bundle built by scripts\/bundle\.mjs/);
    expect(runs).toEqual([]);
    expect(cacheFiles()).toEqual([]);
  });
});
