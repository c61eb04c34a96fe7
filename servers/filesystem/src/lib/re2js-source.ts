import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// Set by scripts/bundle.mjs to the text of re2js's CommonJS build: a worker thread cannot
// import the server's bundle, so code it needs from a dependency travels as text.
declare const MCP_BUNDLED_RE2JS_SOURCE: string | undefined;

/**
 * The source of re2js (CommonJS, self-contained), for a worker to evaluate. Read once per
 * call site that asks; a few hundred kilobytes.
 */
export function re2jsSource(): string {
  if (typeof MCP_BUNDLED_RE2JS_SOURCE === 'string') return MCP_BUNDLED_RE2JS_SOURCE;
  return readFileSync(createRequire(import.meta.url).resolve('re2js'), 'utf8');
}
