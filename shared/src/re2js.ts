import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';

/** re2js's RE2JS class (its static `compile`, the flag bits). */
export type RE2JSClass = typeof RE2JS;

// Set by scripts/bundle.mjs to the text of re2js's CommonJS build: a worker thread cannot
// import the server's bundle, so code it needs from a dependency travels as text.
declare const MCP_BUNDLED_RE2JS_SOURCE: string | undefined;

/** The source of re2js (CommonJS, self-contained, a few hundred kilobytes), for a worker to evaluate. */
export function re2jsSource(): string {
  if (typeof MCP_BUNDLED_RE2JS_SOURCE === 'string') return MCP_BUNDLED_RE2JS_SOURCE;
  return readFileSync(createRequire(import.meta.url).resolve('re2js'), 'utf8');
}

// The evaluated library, once per thread. It hangs off globalThis like a worker's copy
// does: immutable library code, evaluated on first use, so a server that is
// never asked for a glob or a pattern never compiles it and start-up stays fast (the
// bundle carries re2js once, as text).
const KEY = Symbol.for('@mcp-reference/shared/re2js');

/** re2js's RE2JS class, evaluated from its source on first use. */
export function loadRE2JS(): RE2JSClass {
  const holder = globalThis as { [KEY]?: RE2JSClass };
  if (!holder[KEY]) {
    const module = { exports: {} as { RE2JS?: RE2JSClass } };
    new Function('module', 'exports', re2jsSource())(module, module.exports);
    holder[KEY] = module.exports.RE2JS!;
  }
  return holder[KEY];
}
