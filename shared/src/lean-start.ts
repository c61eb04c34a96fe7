// A lean start: what V8 does while a server's modules load, it keeps for as long as the server
// sits idle. Loading the SDK and zod builds some 1,800 schemas in a few milliseconds, the
// busiest stretch of an idle server's life. Left to itself V8 then (1) compiles the hottest
// schema constructors with its optimizing compilers (TurboFan; Maglev too from Node 24), which
// brings megabytes of the node binary's compiler code into memory, and (2) grows the young
// generation from two semi-spaces of 1 MB to two of 4 MB, all of it touched, until its memory
// reducer runs some 8 s later. Together about 8 MB of an idle server's 61 MB on Node 20 (Linux;
// `npx -y pnpm@10 bench`'s idle rows), and about 5 MB of 64 MB on Node 24.
//
// So the bin holds both back while the bundle loads (`beginLeanStart`, before anything else
// runs), and the server lets go at its first request that does work (`endLeanStart`: a tool
// call, a read, a prompt, a completion; not the lists a client asks for on connecting), from
// when on V8 runs with its defaults. Flags the person set (NODE_OPTIONS, node's own arguments)
// are left as they are. V8's flags belong to the process, so only the main thread sets them.
import { setFlagsFromString } from 'node:v8';
import { isMainThread } from 'node:worker_threads';

/** Where the bin leaves the flags to set back: on the process, which both the bin and the bundle see. */
const RESTORE = Symbol.for('@mcp-reference/shared/lean-start');

export interface LeanStartFlags {
  /** Set while the modules load. */
  hold: string[];
  /** Set at the first request that does work: V8's defaults (the same in Node 20 to 26). */
  restore: string[];
}

/**
 * Which flags a lean start sets, given node's arguments and NODE_OPTIONS: none that the
 * person set themselves, and none at all under --jitless (no compiler to hold back).
 * `maglev`: whether this Node's V8 was built with Maglev, which is then on by default
 * (Node 24 on; Node 20 and 22 are built without it, and their --maglev is off).
 */
export function leanStartFlags(execArgv: readonly string[], nodeOptions = '', maglev = false): LeanStartFlags {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].map((arg) => arg.replace(/_/g, '-'));
  const names = (pattern: RegExp) => given.some((arg) => pattern.test(arg));
  const flags: LeanStartFlags = { hold: [], restore: [] };
  if (names(/^--(no-)?jitless(=|$)/)) return flags;
  if (!names(/^--(no-)?(turbofan|opt)(=|$)/)) {
    flags.hold.push('--no-turbofan');
    flags.restore.push('--turbofan');
  }
  if (maglev && !names(/^--(no-)?maglev(=|$)/)) {
    flags.hold.push('--no-maglev');
    flags.restore.push('--maglev');
  }
  if (!names(/^--((min|max)-semi-space-size|semi-space-growth-factor|max-heap-size)(=|$)/)) {
    flags.hold.push('--semi-space-growth-factor=1');
    flags.restore.push('--semi-space-growth-factor=2');
  }
  return flags;
}

type Holder = { [RESTORE]?: string[] };

/** Holds V8 back while the server's modules load: the bin's first step. */
export function beginLeanStart(): void {
  if (!isMainThread) return;
  const maglev = (process.config.variables as { v8_enable_maglev?: unknown }).v8_enable_maglev === 1;
  const { hold, restore } = leanStartFlags(process.execArgv, process.env.NODE_OPTIONS, maglev);
  if (hold.length === 0) return;
  for (const flag of hold) setFlagsFromString(flag);
  (process as Holder)[RESTORE] = restore;
}

/** Gives V8 its defaults back; after the first call (or without a lean start), does nothing. */
export function endLeanStart(): void {
  const restore = (process as Holder)[RESTORE];
  if (restore === undefined) return;
  delete (process as Holder)[RESTORE];
  for (const flag of restore) setFlagsFromString(flag);
}

/** Whether a request is work, which ends a lean start: anything but the lists and logging/setLevel. */
export function isWorkRequest(method: string): boolean {
  return !method.endsWith('/list') && method !== 'logging/setLevel';
}
