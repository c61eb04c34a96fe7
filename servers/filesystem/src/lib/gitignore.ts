import { realpathSync } from 'node:fs';
import path from 'node:path';
import { isWithin } from './path-policy.js';
import { parseGitignoreRules } from './gitignore-rules.js';
import type { GitignoreRules } from './gitignore-rules.js';
import { readOwnFileSync } from '@mcp-reference/shared/core';
import { procPathOfFd } from './open-checked.js';

/**
 * .gitignore rules as git applies them to a working tree: each .gitignore speaks about
 * paths relative to its own directory, and a deeper file overrides a shallower one
 * (a `!pattern` below re-includes what a parent excluded). Not consulted:
 * .git/info/exclude and the user's global excludes file, which live outside the tree
 * and differ per machine.
 *
 * A stack is immutable: walkers extend it per directory and share the parent's levels.
 */
export interface GitignoreLevel {
  /** Absolute directory the rules are relative to. */
  dir: string;
  /** `dir` ending in a separator: what the paths it speaks about start with. */
  prefix: string;
  rules: GitignoreRules;
}

export type GitignoreStack = readonly GitignoreLevel[];

export const GITIGNORE_FILE = '.gitignore';

/** A larger .gitignore is skipped: the biggest real ones are tens of kilobytes. */
export const MAX_GITIGNORE_BYTES = 1024 * 1024;

/** Told about a .gitignore that was skipped (a FIFO, a symlink, too large...), and why. */
export type IgnoreFileSkipped = (file: string, reason: string) => void;

export interface GitignoreReadOptions {
  /** Where the directory really is (its real path), when the caller has checked it. */
  realDir?: string;
  onSkip?: IgnoreFileSkipped;
}

// git matches case-insensitively where the filesystem usually does (core.ignorecase).
const IGNORE_CASE = process.platform === 'darwin' || process.platform === 'win32';

/** The rules of one .gitignore text, or undefined when it has none. */
export function parseGitignore(text: string): GitignoreRules | undefined {
  return parseGitignoreRules(text, { ignoreCase: IGNORE_CASE });
}

/**
 * `stack` extended with `dir/.gitignore`, when that file exists and has rules. Callers
 * that already listed `dir` pass `hasFile` to skip the read when there is no such file.
 * An unreadable .gitignore is treated as absent, as git does; one that is not a regular
 * file, is a symlink, is over MAX_GITIGNORE_BYTES or is not really in `realDir` is
 * skipped and reported to `onSkip` (readOwnFileSync in the base).
 */
export function withGitignoreOf(stack: GitignoreStack, dir: string, hasFile = true, options: GitignoreReadOptions = {}): GitignoreStack {
  if (!hasFile) return stack;
  const file = path.join(dir, GITIGNORE_FILE);
  const read = readOwnFileSync(file, {
    maxBytes: MAX_GITIGNORE_BYTES,
    realPathOf: procPathOfFd,
    expected: options.realDir === undefined ? undefined : path.join(options.realDir, GITIGNORE_FILE),
  });
  if ('skipped' in read) options.onSkip?.(file, read.skipped);
  if (!('text' in read)) return stack;
  const rules = parseGitignore(read.text);
  return rules ? [...stack, { dir, prefix: dir.endsWith(path.sep) ? dir : dir + path.sep, rules }] : stack;
}

/**
 * The rules that apply inside `dir`: the .gitignore files of `boundary` (the allowed
 * directory, typically) and of every directory down to `dir`, inclusive.
 *
 * A directory asked for explicitly is shown even if it is ignored: when `dir` itself is
 * ignored by its parents' rules, only its own .gitignore applies, so listing
 * `node_modules` lists it instead of returning nothing.
 */
export function loadGitignoreChain(dir: string, boundary: string = dir, onSkip?: IgnoreFileSkipped): GitignoreStack {
  const top = isWithin(boundary, dir) ? boundary : dir;
  const chain: string[] = [];
  for (let current = dir; ; current = path.dirname(current)) {
    chain.unshift(current);
    if (current === top || path.dirname(current) === current) break;
  }
  const read = (level: string): GitignoreReadOptions => ({ realDir: realpathOrUndefined(level), onSkip });
  let stack: GitignoreStack = [];
  for (const level of chain.slice(0, -1)) stack = withGitignoreOf(stack, level, true, read(level));
  if (isIgnored(stack, dir, true)) stack = [];
  return withGitignoreOf(stack, dir, true, read(dir));
}

/** Whether `absolutePath` is ignored by `stack`; the deepest level with an opinion wins. */
export function isIgnored(stack: GitignoreStack, absolutePath: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const level of stack) {
    const rel = relativeTo(level.prefix, absolutePath);
    if (rel === undefined) continue;
    const verdict = level.rules.test(rel, isDirectory);
    if (verdict !== undefined) ignored = verdict === 'ignored';
  }
  return ignored;
}

function relativeTo(prefix: string, absolutePath: string): string | undefined {
  if (!absolutePath.startsWith(prefix)) return undefined;
  const rel = absolutePath.slice(prefix.length);
  return path.sep === '/' ? rel : rel.split(path.sep).join('/');
}

function realpathOrUndefined(dir: string): string | undefined {
  try {
    return realpathSync(dir);
  } catch {
    return undefined;
  }
}
