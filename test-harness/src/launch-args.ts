// The command-line arguments each server needs to start, keyed by its folder under
// servers/, given a fresh temporary directory the fixture may fill. Used by every test
// that spawns all servers (process lifecycle, conformance), so a new server is added once.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { gitFixtureEnv } from './fixtures/git-repo.js';

const exec = promisify(execFile);

async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    const file = join(root, rel);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
  }
}

export const LAUNCH_ARGS: Record<string, (dir: string) => Promise<string[]>> = {
  // A notes server over a directory: the directory of notes is its positional argument.
  _template: async (dir) => {
    await writeFiles(dir, {
      'welcome.md': '# Welcome\n\nThis is the first note.\n',
      'shopping.md': '# Shopping\n\n- milk\n- bread\n',
      'ideas.md': '# Ideas\n\nWrite a conformance runner.\n',
    });
    return [dir];
  },
  // The filesystem server: the allowed directory is its positional argument.
  filesystem: async (dir) => {
    await writeFiles(dir, {
      'hello.txt': 'Hello, world!\n',
      'notes/todo.md': '# Todo\n\n- test\n',
      'data/numbers.json': '[1, 2, 3]\n',
    });
    return [dir];
  },
  // The git server: one repository with a commit, given with --repository.
  git: async (dir) => {
    await writeFiles(dir, { 'README.md': '# Fixture\n', 'src/a.txt': 'a\n' });
    const env = gitFixtureEnv();
    for (const args of [['init', '-q', '-b', 'main'], ['add', '-A'], ['commit', '-q', '-m', 'first']]) {
      await exec('git', args, { cwd: dir, env });
    }
    return ['--repository', dir];
  },
  // The SQLite server: a small database file, given with --db-path.
  sqlite: async (dir) => {
    const file = join(dir, 'fixture.db');
    const db = new Database(file);
    db.exec(`CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
             INSERT INTO users (name) VALUES ('ada'), ('grace');`);
    db.close();
    return ['--db-path', file];
  },
  // The fetch server needs no arguments to start.
  fetch: async () => [],
};

/** The arguments to start the server in `serverDir`'s folder (none for unknown servers). */
export async function launchArgs(name: string, dir: string): Promise<string[]> {
  return (await LAUNCH_ARGS[name]?.(dir)) ?? [];
}
