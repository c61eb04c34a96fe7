import { runGit, spawnGit, type RunOptions, type RunResult } from './git-runner.js';
import { createRecordStreams, type RecordStream } from './record-stream.js';
import type { Repo } from './repo.js';
import { createCatFile, type CatResult } from './cat-file.js';
import { untrustedOverrides, type OverrideCaches } from './untrusted-config.js';

/**
 * Runs git in a repository with the per-driver overrides its config calls for
 * (see `untrustedOverrides`), checked for every git command: whatever was checked
 * before is stale after any write (a reset can bring back an include), so a config
 * listing is reused only while the files it came from are unchanged; and serializes
 * writes to each repository.
 */
export interface GitRunner {
  run(repo: Repo, args: readonly string[], options?: RunOptions): Promise<RunResult>;
  /** Runs `work` after every earlier write to the same repository has finished. */
  exclusive<T>(repo: Repo, work: () => Promise<T>): Promise<T>;
  /** An object's type and size, and its content when it is a blob of at most `maxBytes` (one persistent process per repository). */
  catFile(repo: Repo, object: string, maxBytes: number, signal?: AbortSignal): Promise<CatResult>;
  /**
   * A git process read a page of records at a time (git_log's cursors). `find` returns
   * the open stream a cursor points to, if it is still at that position.
   */
  streams: {
    start(repo: Repo, args: readonly string[], options: { key: string; position: number; literalPathspecs?: boolean; signal?: AbortSignal }): Promise<RecordStream>;
    find(id: string, key: string, position: number): RecordStream | undefined;
    drop(id: string): void;
  };
  /** Ends the persistent processes. */
  close(): void;
}

export function createGitRunner(): GitRunner {
  const queues = new Map<string, Promise<unknown>>();
  const cat = createCatFile();
  const records = createRecordStreams();

  const caches: OverrideCaches = { gitlinks: new Map(), listings: new Map() };
  const overridesFor = (repo: Repo, signal?: AbortSignal) => untrustedOverrides(repo, signal, caches);

  return {
    async run(repo, args, options = {}) {
      const config = await overridesFor(repo, options.signal);
      return runGit(repo, args, { ...options, config: [...config, ...(options.config ?? [])] });
    },
    exclusive(repo, work) {
      const previous = queues.get(repo.commonDir) ?? Promise.resolve();
      const next = previous.then(work, work);
      const settled = next.catch(() => undefined);
      queues.set(repo.commonDir, settled);
      void settled.then(() => {
        if (queues.get(repo.commonDir) === settled) queues.delete(repo.commonDir);
      });
      return next;
    },
    catFile: (repo, object, maxBytes, signal) => cat.read(repo, object, maxBytes, signal),
    streams: {
      async start(repo, args, { key, position, literalPathspecs, signal }) {
        const config = await overridesFor(repo, signal);
        return records.start(spawnGit(repo, args, { config, literalPathspecs }), key, '\x1e', position);
      },
      find: (id, key, position) => records.find(id, key, position),
      drop: (id) => records.drop(id),
    },
    close: () => {
      cat.close();
      records.close();
    },
  };
}
