import { stat } from 'node:fs/promises';
import path from 'node:path';
import { driverOverrides, runGit, spawnGit, type RunOptions, type RunResult } from './git-runner.js';
import { createRecordStreams, type RecordStream } from './record-stream.js';
import type { Repo } from './repo.js';
import { createCatFile, type CatResult } from './cat-file.js';

/**
 * Runs git in a repository with the per-driver overrides its config calls for
 * (see `driverOverrides`), and serializes writes to each repository. The overrides are
 * recomputed whenever a config file git read (includes too) or HEAD (for
 * `includeIf "onbranch:"`) changes.
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

interface CachedOverrides {
  key: string;
  files: string[];
  overrides: string[];
}

async function stamp(files: readonly string[]): Promise<string> {
  const parts = await Promise.all(
    files.map((file) => stat(file).then((s) => `${file}:${s.mtimeMs}:${s.size}:${s.ino}`, () => `${file}:-`)),
  );
  return parts.join('|');
}

export function createGitRunner(): GitRunner {
  const cache = new Map<string, CachedOverrides>();
  const queues = new Map<string, Promise<unknown>>();
  const cat = createCatFile();
  const records = createRecordStreams();

  async function overridesFor(repo: Repo, signal?: AbortSignal): Promise<string[]> {
    const base = [path.join(repo.commonDir, 'config'), path.join(repo.gitDir, 'config.worktree'), path.join(repo.gitDir, 'HEAD')];
    const cached = cache.get(repo.gitDir);
    if (cached && cached.key === (await stamp(cached.files))) return cached.overrides;
    const { stdout } = await runGit(repo, ['config', '--list', '--show-scope', '--show-origin', '--name-only', '-z'], { signal, okCodes: [1] });
    const fields = stdout.toString('utf8').split('\0');
    const names: string[] = [];
    const files = new Set(base);
    for (let i = 0; i + 2 < fields.length; i += 3) {
      const [scope, origin, name] = [fields[i], fields[i + 1], fields[i + 2]];
      if (origin.startsWith('file:')) files.add(path.resolve(repo.root, origin.slice(5)));
      // The repository's own config (and what it includes) is untrusted; the user's is not.
      if (scope === 'local' || scope === 'worktree' || scope === 'unknown') names.push(name);
    }
    const list = [...files];
    const overrides = driverOverrides(names);
    cache.set(repo.gitDir, { key: await stamp(list), files: list, overrides });
    return overrides;
  }

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
