// Probes for one class of robustness bug: a file a server opens for itself (an ignore
// file, a config file; anything no client named) that is not an ordinary file. A FIFO
// blocks a plain read until a writer comes, freezing every session of the process; a
// symlink to /dev/zero grows the heap without end; a symlink may lead outside what the
// server may read; a huge file stalls it. Usable by any server that reads such files
// (the filesystem server's .gitignore files today).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, openSync, closeSync, ftruncateSync, symlinkSync } from 'node:fs';
import path from 'node:path';

export type SpecialFileKind = 'fifo' | 'dev-zero-symlink' | 'outside-symlink' | 'huge';

export interface SpecialFile {
  kind: SpecialFileKind;
  path: string;
  /**
   * For a FIFO: whether the rescuer (a separate process that opens it for writing after
   * `rescueAfterMs`, so that a server blocked on it cannot hang the test run forever) has
   * had to come. A server that never blocked answered before that.
   */
  rescued(): boolean;
  /** Ends the rescuer, if still waiting. */
  dispose(): void;
}

/**
 * Makes `file` a special file of `kind`. `outsideTarget` (for 'outside-symlink') is a
 * regular file outside the server's reach; 'huge' is a 300 MB sparse file (no disk used).
 */
export function makeSpecialFile(file: string, kind: SpecialFileKind, options: { outsideTarget?: string; rescueAfterMs?: number } = {}): SpecialFile {
  const marker = `${file}.rescued`;
  let rescuer: ReturnType<typeof spawn> | undefined;
  if (kind === 'fifo') {
    execFileSync('mkfifo', [file]);
    const seconds = (options.rescueAfterMs ?? 8_000) / 1000;
    // Opening for writing releases a reader blocked in open() (and again each second after,
    // for the next read); the marker says it happened. A server that never blocks leaves
    // the rescuer waiting in open() until dispose().
    rescuer = spawn('sh', ['-c', `sleep ${seconds}; : > "${marker}"; while :; do : > "$0"; sleep 1; done`, file], { stdio: 'ignore' });
    rescuer.unref();
  } else if (kind === 'dev-zero-symlink') {
    symlinkSync('/dev/zero', file);
  } else if (kind === 'outside-symlink') {
    if (!options.outsideTarget) throw new Error('outside-symlink needs outsideTarget');
    symlinkSync(path.resolve(options.outsideTarget), file);
  } else {
    const fd = openSync(file, 'w');
    ftruncateSync(fd, 300 * 1024 * 1024);
    closeSync(fd);
  }
  return {
    kind,
    path: file,
    rescued: () => existsSync(marker),
    dispose: () => {
      if (rescuer && rescuer.exitCode === null) rescuer.kill();
    },
  };
}
