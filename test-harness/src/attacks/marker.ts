// A program an attacker plants, and the proof that it never ran: every planted program
// appends a line to one marker file, outside every directory a server is given.
import { chmod, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { makeTempTree } from '../fixtures/temp-tree.js';

export interface Marker {
  /** The file every planted program appends to. */
  readonly file: string;
  /** A directory outside every repository: planted programs and other outside files go here. */
  readonly dir: string;
  /**
   * An executable that records `name` and its arguments in the marker, then copies its
   * input to its output (a filter or a proxy it stands for does not hang waiting).
   */
  program(name: string): Promise<string>;
  /** What the planted programs recorded, '' when none ran. */
  ran(): Promise<string>;
  /** Forgets what ran (after a control run that had to run them). */
  clear(): Promise<void>;
  cleanup(): Promise<void>;
}

export async function makeMarker(): Promise<Marker> {
  const tree = await makeTempTree({}, 'mcp-attack-');
  const file = tree.path('MARKER');
  return {
    file,
    dir: tree.dir,
    async program(name) {
      const script = tree.path(`${name.replace(/[^A-Za-z0-9._-]/g, '_')}.sh`);
      await writeFile(script, `#!/bin/sh\necho "${name} $*" >> '${file}'\nexec cat\n`);
      await chmod(script, 0o755);
      return script;
    },
    ran: () => readFile(file, 'utf8').catch(() => ''),
    clear: () => rm(file, { force: true }),
    cleanup: () => tree.cleanup(),
  };
}

/** Asserts that no planted program ran; the message says which did and with what. */
export async function expectNoMarker(marker: Marker, label: string): Promise<void> {
  const exists = await stat(marker.file).then(() => true, () => false);
  expect(exists, `${label}: a planted program ran: ${await marker.ran()}`).toBe(false);
}

/** Asserts that a planted program did run (a control: the attack is live), then clears the marker. */
export async function expectMarker(marker: Marker, label: string): Promise<void> {
  expect(await marker.ran(), `${label}: the control did not run the planted program, so the attack proves nothing`).not.toBe('');
  await marker.clear();
}
