import type { SimpleGitOptions } from 'simple-git';
import type { Repo } from './repo.js';
import { watchSpawnErrors } from './spawn-error-watch.js';
import { characterBoundary, childProcess, childProcessSlots } from '@mcp-reference/shared/core';

/*
 * How git is run. One-shot commands (a diff, a status, a commit: run to exit, output read
 * whole) go through simple-git (`runGit`). Three kinds stay on a plain `spawn`:
 * - the persistent `git cat-file --batch-command` process (cat-file.ts) and the paused
 *   `git log` record streams behind git_log's cursors (record-stream.ts): they are written
 *   to and read a piece at a time for as long as they live; simple-git runs a command to
 *   exit and hands back its whole output;
 * - `git grep` (`direct: true`): its pattern is the value of `-e` and may start with "-";
 *   simple-git's argument scanner cannot tell a value from an option and would refuse a
 *   search for "--template".
 * Both paths run the same command line (`--no-pager`, SAFE_CONFIG, the driver overrides),
 * with the same environment (gitEnv), and never through a shell. Every child has an
 * 'error' listener before anything else touches it: a spawn that fails (EMFILE when
 * descriptors run out, ENOENT) is an error answer, never a crash. simple-git alone would
 * leave a failed spawn's EMFILE unheard (spawn-error-watch.ts says why and how it is heard).
 */

/**
 * Why git failed, in words a model can act on (stderr of git, cleaned). Domain error:
 * the server turns it into an isError result.
 */
export class GitError extends Error {
  override name = 'GitError';
}

/**
 * Settings that stop a repository (an untrusted input) from making git run a program:
 * hooks, fsmonitor, external diff, pager, editors, signing, ssh, credential helpers,
 * askpass, and every transport. Command-line `-c` wins over the repository's config.
 */
export const SAFE_CONFIG: readonly string[] = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.pager=cat',
  'core.editor=false',
  'sequence.editor=false',
  'core.askPass=',
  'core.sshCommand=false',
  'core.gitProxy=',
  'core.attributesFile=/dev/null',
  'core.alternateRefsCommand=',
  'core.untrackedCache=false',
  'diff.external=',
  'credential.helper=',
  'gpg.program=false',
  'gpg.ssh.program=false',
  'gpg.x509.program=false',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'tag.forceSignAnnotated=false',
  'log.showSignature=false',
  'protocol.allow=never',
  'submodule.recurse=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'color.ui=false',
  // Output formats the parsers rely on, whatever the repository's config says.
  'diff.noprefix=false',
  'diff.mnemonicPrefix=false',
  'diff.relative=false',
  'core.quotePath=true',
  'blame.ignoreRevsFile=',
  'blame.markUnblamableLines=false',
  'blame.markIgnoredLines=false',
  'i18n.logOutputEncoding=UTF-8',
].flatMap((setting) => ['-c', setting]);

/**
 * Per-driver settings cannot be turned off with one key: `filter.<x>.clean` and friends
 * are named by the repository's own config (and .gitattributes picks them). Each driver
 * the repository's config defines (`configNames`: keys of local/worktree scope, includes
 * too) gets its programs blanked on the command line, which git reads as "no filter" /
 * "no textconv" (convert.c and diff.c skip empty commands). Drivers of the user's own
 * config (git-lfs, say) are left alone.
 */
export function driverOverrides(configNames: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of configNames) {
    // Config names are case-insensitive in section and key, case-sensitive in the subsection:
    // `filter.x` and `filter.X` are two drivers, each blanked as written.
    const match = /^(filter|diff|merge)\.(.+)\.([a-z]+)$/i.exec(raw);
    if (!match) continue;
    const section = match[1].toLowerCase();
    const sub = match[2];
    const key = `${section}.${sub}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (section === 'filter') out.push('-c', `filter.${sub}.clean=`, '-c', `filter.${sub}.smudge=`, '-c', `filter.${sub}.process=`, '-c', `filter.${sub}.required=false`);
    else if (section === 'diff') out.push('-c', `diff.${sub}.textconv=`, '-c', `diff.${sub}.command=`);
    else out.push('-c', `merge.${sub}.driver=false`);
  }
  return out;
}

const IDENTITY = new Set(['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL']);

/**
 * The environment git runs with: none of the caller's GIT_* variables but its identity,
 * no prompts. The user's own (global and system) config is read: it is trusted, and it
 * holds user.name/email; what a repository's config may name is overridden by `-c`.
 */
export function gitEnv(repo: Pick<Repo, 'gitDir' | 'root'> | undefined, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // The caller's identity is kept; GIT_DIR, GIT_CONFIG_*, GIT_EXEC_PATH and the like are not.
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_') || IDENTITY.has(key)) env[key] = value;
  Object.assign(env, {
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    GIT_EDITOR: 'false',
    GIT_SEQUENCE_EDITOR: 'false',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PROTOCOL_FROM_USER: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
    // Set (even empty), it stops git reading core.gitProxy from config: that key is
    // multi-valued and the first match wins, so `-c core.gitProxy=` cannot override the
    // repository's value for a git:// remote.
    GIT_PROXY_COMMAND: '',
    LC_ALL: 'C',
    LANG: 'C',
  });
  if (repo) {
    // The repository and work tree we checked, whatever core.worktree in its config says.
    env.GIT_DIR = repo.gitDir;
    env.GIT_WORK_TREE = repo.root;
  }
  return Object.assign(env, extra);
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Stop reading (and kill git) after this many bytes of stdout; the result says `truncated`. */
  maxBytes?: number;
  timeoutMs?: number;
  /** Literal pathspecs: `*` and `:(magic)` in a path are just characters. */
  literalPathspecs?: boolean;
  /** Exit codes that are not failures (e.g. 1 for grep "no match"). */
  okCodes?: readonly number[];
  /** Called with the bytes of stdout read so far, at each chunk (progress reporting); in `onChunk` mode too. */
  onData?: (bytes: number) => void;
  /**
   * Reads stdout a chunk at a time instead of keeping it (the result's stdout is empty):
   * returning true stops git there, as `maxBytes` does. Implies a plain spawn (`direct`).
   * `flow` pauses the reading while the reader catches up (git then blocks on the pipe).
   */
  onChunk?: (chunk: Buffer, flow: StreamFlow) => boolean;
  /** Extra `-c` settings (driver overrides). */
  config?: readonly string[];
  /** Run on a plain spawn, not through simple-git (see the note at the top of this file). */
  direct?: boolean;
}

/** Starts git with the safe settings and returns the child: for streams read a piece at a time. */
export function spawnGit(repo: Pick<Repo, 'gitDir' | 'root'>, args: readonly string[], options: Pick<RunOptions, 'config' | 'literalPathspecs'> = {}) {
  const env = gitEnv(repo, options.literalPathspecs ? { GIT_LITERAL_PATHSPECS: '1' } : {});
  const argv = ['--no-pager', ...SAFE_CONFIG, ...(options.config ?? []), ...args];
  assertTakeable(argv);
  try {
    return childProcess().spawn('git', argv, { cwd: repo.root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    throw new GitError(`Could not start git: ${error instanceof Error ? error.message : String(error)}.`);
  }
}

/** Pauses and resumes reading git's stdout: a reader slower than git holds git back instead of buffering. */
export interface StreamFlow {
  pause(): void;
  resume(): void;
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
  code: number;
  truncated: boolean;
}

export const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * simple-git's own guard (blockUnsafeOperationsPlugin) refuses `-c` settings and
 * variables that name programs, whatever their value. Ours switch programs OFF
 * (SAFE_CONFIG, gitEnv with its empty GIT_PROXY_COMMAND, driverOverrides and the
 * per-call overrides of untrusted-config.ts), or name the user's own from trusted config
 * (remote.ts: core.sshCommand, credential.helper, protocol.<x>.allow, and the
 * upload-pack/receive-pack given on the command line), so those categories are allowed.
 * Client input never reaches these places: validate.ts, `--end-of-options` and `--` keep
 * it out of git's options. Left on: alias, template directory, config from the
 * environment (GIT_CONFIG_COUNT), a custom binary.
 */
const OUR_OWN_SETTINGS: SimpleGitOptions['unsafe'] = {
  allowUnsafeAskPass: true, // core.askPass=, GIT_ASKPASS=, SSH_ASKPASS=
  allowUnsafeEditor: true, // core.editor=false, sequence.editor=false, GIT_EDITOR, the caller's EDITOR
  allowUnsafePager: true, // core.pager=cat, GIT_PAGER, PAGER
  allowUnsafeFsMonitor: true, // core.fsmonitor=false
  allowUnsafeGitProxy: true, // core.gitProxy=, GIT_PROXY_COMMAND=
  allowUnsafeHooksPath: true, // core.hooksPath=/dev/null
  allowUnsafeSshCommand: true, // core.sshCommand=false, or the user's own for a checked remote; the caller's GIT_SSH*
  allowUnsafeCredentialHelper: true, // credential.helper=, or the user's own
  allowUnsafeDiffExternal: true, // diff.external=, diff.<driver>.command=
  allowUnsafeDiffTextConv: true, // diff.<driver>.textconv=
  allowUnsafeFilter: true, // filter.<driver>.clean= / smudge=
  allowUnsafeMergeDriver: true, // merge.<driver>.driver=false
  allowUnsafeGpgProgram: true, // gpg.program=false and friends
  allowUnsafeProtocolOverride: true, // protocol.allow=never, protocol.<checked>.allow=always
  allowUnsafePack: true, // --upload-pack= / --receive-pack= (git's own, or git with LOCAL_END for a local remote)
  allowUnsafeConfigPaths: true, // the caller's PREFIX (gitEnv already drops GIT_CONFIG*, GIT_EXEC_PATH)
};

/**
 * simple-git's guard looks for "alias" and "init.templateDir" anywhere in a `-c` key
 * (an unanchored match), so the override of a repository's driver named, say, `myalias`
 * (`-c filter.myalias.clean=`) would make it refuse every command in that repository.
 * Those two categories are allowed for a call only when one of our own `-c` settings
 * (never a client's: see OUR_OWN_SETTINGS) is what trips them.
 */
function unsafeFor(config: readonly string[]): SimpleGitOptions['unsafe'] {
  const keys = config.filter((_, i) => config[i - 1] === '-c').map((setting) => setting.split('=')[0].toLowerCase());
  return {
    ...OUR_OWN_SETTINGS,
    ...(keys.some((key) => /alias/.test(key)) ? { allowUnsafeAlias: true } : {}),
    ...(keys.some((key) => /init.templatedir/.test(key)) ? { allowUnsafeTemplateDir: true } : {}),
  };
}

type Stop = 'cancelled' | 'timeout' | 'enough';

/**
 * Runs git with the safe settings, in `repo` (or none), through simple-git (or a plain
 * spawn with `direct`). Arguments are passed as an array, never through a shell. The
 * child is stopped when `signal` aborts, at the time limit, or once `maxBytes` have been
 * read, and the call settles only after it has exited and its pipes have closed, so no
 * git process or descriptor outlives its call.
 */
export async function runGit(repo: Pick<Repo, 'gitDir' | 'root'> | undefined, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  if (options.signal?.aborted) throw new GitError('The call was cancelled.');
  assertTakeable(['--no-pager', ...SAFE_CONFIG, ...(options.config ?? []), ...args]);
  // A slot of the process's (the base's childProcessSlots): hundreds of calls at once run a few gits at a time.
  const release = await childProcessSlots()
    .acquire(options.signal)
    .catch(() => {
      throw new GitError('The call was cancelled.');
    });
  try {
    return await (options.direct || options.onChunk ? runSpawned(repo, args, options) : runSimpleGit(repo, args, options));
  } finally {
    release();
  }
}

/**
 * The longest command line git is started with: Linux takes at most 128 KiB in one
 * argument and Windows 32,767 characters in all; a path or pattern of 300 KB failed as
 * "spawn E2BIG", thrown where nothing expected it.
 */
const MAX_ARGUMENT_BYTES = 100_000;
const MAX_COMMAND_LINE = process.platform === 'win32' ? 32_000 : 200_000;

/** Refuses, with words a model can act on, what Node would refuse before git starts. */
function assertTakeable(argv: readonly string[]): void {
  // Node refuses these before it creates a child (spawn-error-watch.ts relies on a child per spawn).
  if (argv.some((arg) => arg.includes('\0'))) throw new GitError('An argument holds a NUL character, which git cannot take. Remove it and call again.');
  let total = 0;
  for (const arg of argv) {
    const bytes = Buffer.byteLength(arg);
    total += bytes + 1;
    if (bytes > MAX_ARGUMENT_BYTES) {
      throw new GitError(`An argument is too long for git (${Math.ceil(bytes / 1024)} KB; at most ${MAX_ARGUMENT_BYTES / 1000} KB each). Shorten the path, pattern or revision and call again.`);
    }
    if (total > MAX_COMMAND_LINE) {
      throw new GitError(`The arguments are too long for git together (more than ${MAX_COMMAND_LINE / 1000} KB). Give fewer or shorter paths, and call again.`);
    }
  }
}

async function runSimpleGit(repo: Pick<Repo, 'gitDir' | 'root'> | undefined, args: readonly string[], options: RunOptions): Promise<RunResult> {
  const argv = ['--no-pager', ...SAFE_CONFIG, ...(options.config ?? []), ...args];
  const stop = new AbortController();
  let stoppedFor: Stop | undefined;
  const halt = (reason: Stop) => {
    stoppedFor ??= reason;
    stop.abort();
  };
  const onAbort = () => halt('cancelled');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  // A limit on the whole call (simple-git's `timeout.block` only counts silence).
  const timer = setTimeout(() => halt('timeout'), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const max = options.maxBytes ?? Infinity;
  let outcome: { exitCode: number; stdOut: Buffer[]; stdErr: Buffer[] } | undefined;
  let watch: ReturnType<typeof watchSpawnErrors> | undefined;
  try {
    // Loaded on first use: it is not needed to start and answer `initialize`.
    const { simpleGit } = await import('simple-git');
    const git = simpleGit({
      baseDir: repo?.root ?? process.cwd(),
      binary: 'git',
      maxConcurrentProcesses: 1,
      // simple-git stops the child (SIGINT) and settles once it has closed.
      abort: stop.signal,
      unsafe: unsafeFor([...SAFE_CONFIG, ...(options.config ?? [])]),
      // Settle on 'close' (every pipe drained), as a plain spawn would.
      completion: { onClose: true, onExit: false },
      // Keep git's exit code and raw bytes (binary blobs, non-UTF-8 paths); this function judges them.
      errors: (_error, result) => {
        outcome = result;
        return undefined;
      },
    })
      .env(gitEnv(repo, options.literalPathspecs ? { GIT_LITERAL_PATHSPECS: '1' } : {}))
      .outputHandler((_command, stdout, stderr) => {
        let bytes = 0;
        // A read error on a pipe ends the child like any other; unheard it would end the server.
        stdout.on('error', () => undefined);
        stderr.on('error', () => undefined);
        // simple-git waits 50 ms more after a command that printed nothing (for its 'exit'
        // path, which we do not use: on 'close' every pipe is drained). An empty chunk at the
        // end of stdout tells it output was seen, so a silent `git add` is not 8 times slower.
        stdout.once('end', () => stdout.emit('data', Buffer.alloc(0)));
        stdout.on('data', (chunk: Buffer) => {
          if (stoppedFor || chunk.length === 0) return;
          bytes += chunk.length;
          if (bytes > max) return halt('enough');
          options.onData?.(bytes);
        });
      });
    watch = watchSpawnErrors('git', argv);
    await git.raw(argv);
  } catch (error) {
    // A spawn that failed (EMFILE, ENFILE): simple-git gave up on the child; its own error says why.
    const failed = await watch?.failure();
    if (failed) throw new GitError(`Could not start git: ${failed.message}. Try again; if it persists, the server is out of file descriptors.`);
    // Otherwise simple-git refused (a missing directory, its argument guard).
    throw new GitError(`Could not run git: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    watch?.stop();
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
  return judge(args, options, stoppedFor, outcome?.exitCode ?? -1, Buffer.concat(outcome?.stdOut ?? []), Buffer.concat(outcome?.stdErr ?? []).toString('utf8').slice(0, 64 * 1024));
}

/** The result of a finished git, or the GitError that says why there is none. */
function judge(args: readonly string[], options: RunOptions, stoppedFor: Stop | undefined, code: number | null, stdout: Buffer, stderr: string): RunResult {
  if (stoppedFor === 'cancelled') throw new GitError('The call was cancelled; git was stopped.');
  if (stoppedFor === 'timeout') {
    throw new GitError(`git took longer than ${Math.round((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s and was stopped. Narrow the request (a path, a smaller count, a line range).`);
  }
  const truncated = stoppedFor === 'enough';
  // A negative code is Node's: git could not be started at all (ENOENT, EACCES).
  if (!truncated && code !== null && code < 0) throw new GitError(`Could not run git: ${stderr.split('\n')[0].replace(/^Error: /, '')}. Is git installed and on PATH?`);
  // Cut where no UTF-8 character is split (the bytes read go past the limit, so the byte after
  // the cut is known): a diff or a message cut there decodes without a replacement character.
  const cut = truncated && options.maxBytes !== undefined ? stdout.subarray(0, characterBoundary(stdout, options.maxBytes)) : stdout;
  const result = { stdout: cut, stderr, code: code ?? -1, truncated };
  if (truncated || code === 0 || options.okCodes?.includes(code ?? -1)) return result;
  // Some failures are told on stdout, in the last line after a status listing ("nothing to commit, working tree clean").
  const lastLine = stdout.subarray(-4_096).toString('utf8').trim().split('\n').pop() ?? '';
  throw new GitError(describeFailure(stderr.trim() ? stderr : lastLine, args, code));
}

/** `runGit` on a plain spawn: for `git grep` (see the note at the top of this file). */
function runSpawned(repo: Pick<Repo, 'gitDir' | 'root'> | undefined, args: readonly string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const env = gitEnv(repo, options.literalPathspecs ? { GIT_LITERAL_PATHSPECS: '1' } : {});
    let child: ReturnType<ReturnType<typeof childProcess>['spawn']>;
    try {
      child = childProcess().spawn('git', ['--no-pager', ...SAFE_CONFIG, ...(options.config ?? []), ...args], {
        cwd: repo?.root ?? process.cwd(),
        env,
        // stdin is a pipe nothing is written to (as it always was): a git that waits for
        // input waits, and is stopped by cancellation or the time limit like any other.
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    } catch (error) {
      // Refused before a child exists (a limit of the system's on the command line, say).
      reject(new GitError(`Could not start git: ${error instanceof Error ? error.message : String(error)}.`));
      return;
    }
    let failed: Error | undefined;
    // First: a spawn that failed (EMFILE, ENOENT) emits 'error' and has no pipes.
    child.on('error', (error) => {
      failed = error;
    });
    if (!child.stdout || !child.stderr) {
      child.once('error', (error) => reject(new GitError(`Could not start git: ${error.message}. Try again; if it persists, the server is out of file descriptors.`)));
      return;
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    let stderr = '';
    let stoppedFor: Stop | undefined;
    const kill = (reason: Stop) => {
      stoppedFor ??= reason;
      child.kill('SIGKILL');
      // A paused stream never ends, and 'close' waits for it.
      child.stdout?.resume();
    };
    const flow: StreamFlow = {
      pause: () => {
        if (!stoppedFor) child.stdout?.pause();
      },
      resume: () => child.stdout?.resume(),
    };
    const onAbort = () => kill('cancelled');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => kill('timeout'), options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      if (stoppedFor) return;
      bytes += chunk.length;
      if (options.onChunk) {
        options.onData?.(bytes);
        if (options.onChunk(chunk, flow)) kill('enough');
        return;
      }
      // The whole chunk is kept: judge() cuts it at the limit, where no character is split.
      chunks.push(chunk);
      if (bytes > (options.maxBytes ?? Infinity)) return kill('enough');
      options.onData?.(bytes);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    child.stdin?.on('error', () => undefined);
    child.on('close', (code) => {
      child.stdin?.destroy();
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (failed && !stoppedFor) return reject(new GitError(`Could not run git: ${failed.message}. Is git installed and on PATH?`));
      try {
        resolve(judge(args, options, stoppedFor, code, Buffer.concat(chunks), stderr));
      } catch (error) {
        reject(error as Error);
      }
    });
  });
}

/**
 * git messages that quote a line of a file git read (a symlinked `shallow` or
 * `MERGE_HEAD` can be any file on the machine): the quoted part is withheld. The
 * repository check refuses such links first; this keeps the text safe if one slips by.
 */
const QUOTES_FILE_CONTENT: readonly RegExp[] = [
  /(bad shallow line:?\s*).*/gi,
  /(Corrupt MERGE_HEAD file \().*(\))/g,
  /(bad graft data:?\s*).*/gi,
  /(bad graft parent:?\s*).*/gi,
  /(bad (?:object|ref|revision) (?:in|for) (?:MERGE_HEAD|ORIG_HEAD|FETCH_HEAD|CHERRY_PICK_HEAD|REVERT_HEAD)[^:]*:?\s*).*/gi,
  /(could not parse (?:MERGE_HEAD|ORIG_HEAD|FETCH_HEAD|CHERRY_PICK_HEAD|REVERT_HEAD)[^:]*:?\s*).*/gi,
];

/** git's stderr with the content of files it quoted withheld (see QUOTES_FILE_CONTENT). */
export function withholdFileContent(stderr: string): string {
  return QUOTES_FILE_CONTENT.reduce((text, pattern) => text.replace(pattern, (_m, before: string, after?: string) => `${before}[file content withheld]${typeof after === 'string' ? after : ''}`), stderr);
}

/** git's complaint, with the one failure that needs a human named plainly. */
export function describeFailure(rawStderr: string, args: readonly string[], code?: number | null): string {
  const stderr = withholdFileContent(rawStderr);
  const text = stderr.trim().replace(/\n+/g, ' ').slice(0, 2_000) || `git gave no reason (exit code ${code ?? 'unknown'})`;
  const lock = /Unable to create '([^']+\.lock)': File exists/.exec(stderr);
  if (lock) {
    return `The repository is locked by ${lock[1]}: another git process is running, or one crashed and left the lock. ` +
      'If no git process is running in this repository, remove that file yourself, then call again. (This server never deletes it.)';
  }
  return `git ${args[0] ?? ''} failed: ${text}`;
}
