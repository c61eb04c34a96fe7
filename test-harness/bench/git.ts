// The git server's figures, on a generated repository (git-repo.ts), each against the same
// `git` command run to exit, turn by turn: git_log (100 commits), git_status, git_diff,
// git_blame, git_grep; page 100 of git_log against page 1; 100 files read with
// git_file_at_ref against one `git cat-file --batch`; cold start and idle memory against
// the official filesystem server. The official git server is Python (not installable
// here) and @cyanheads/git-mcp-server is not installed either, so no row compares with
// them in this run; the figures for the latter are quoted in notes. Each CLI
// baseline is the command our tool runs, with the same output format.
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { commandRunner, interleave, serverRunner } from './interleave.js';
import type { Maker, Runner } from './interleave.js';
import { measureStartup } from './measure-process.js';
import type { RowInput, Target } from './report.js';
import { figure } from './report.js';
import { officialFilesystem, repoRoot, start } from './servers.js';
import type { Launch, ServerSpec } from './servers.js';
import { failed, sample } from './stats.js';
import type { Sample } from './stats.js';
import { ensureSmallDir } from './tree.js';
import { ensureGitRepo, ensureLongLineRepo, LONG_LINE_CHARS, type GitBenchRepo } from './git-repo.js';

/**
 * The git CLI baseline of git_log: one `git log` printing the fields a commit of git_log
 * carries (hash, parents, author name and email, author date, committer name, commit
 * date, subject), separated as a parser would want them. The bench's own: it does not
 * reach into the server's internals.
 */
const CLI_LOG_FORMAT = '--format=%H%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%cn%x1f%cI%x1f%s%x1e';
// The exact format git_log asks for, so the CLI baseline formats the same fields.

export interface GitBenchOptions {
  runs: number;
  quick: boolean;
  log: (line: string) => void;
  /** Our bin (default servers/git/dist/cli.js). */
  entry?: string;
}

/** Matched by RE2 (unbounded repetition): every file's first line holds "file ". */
const REGEX_WITH_TEXT = '^file [0-9]+ version [0-9]+$';
/** Nothing every match holds (it matches an empty line): every line is matched by RE2 (none matches: the repository has no blank line). */
const REGEX_EVERY_LINE = '^ *$';
/** Quadratic in a line's length in git's engine; the line holds "ba", so RE2 matches all of it. */
const HOSTILE_REGEX = '(a|b|.)*ba$';

const TARGETS = {
  vsCli: { kind: 'ratio', max: 1.3 },
  grepVsCli: { kind: 'ratio', max: 2 },
  // A regex with nothing git can look for: bounded by git writing every line (issue 21, item 3).
  everyLine: { kind: 'ratio', max: 3 },
  // time(2N) / time(N): linear is 2.
  linear: { kind: 'ratio', max: 2.5 },
  page: { kind: 'ratio', max: 2 },
  batch: { kind: 'ratio', max: 2 },
  coldStart: { kind: 'ratio', max: 0.6 }, // issue 21 item 17 (was 0.7x)
  idleRss: { kind: 'below', max: 50 }, // issue 21 item 17 (was 60 MB)
} satisfies Record<string, Target>;

export function ourGit(override?: string): ServerSpec {
  const entry = override ?? join(repoRoot(), 'servers/git/dist/cli.js');
  return existsSync(entry) ? { label: 'git (ours)', entry } : { label: 'git (ours)', entry: undefined, missing: 'servers/git/dist/cli.js not built (pnpm build)' };
}

/** A contender that calls one of our tools; a result with isError is a failure. */
function ours(launch: Launch, tool: string, args: () => Record<string, unknown>): Maker {
  return () =>
    serverRunner(launch, tool, async (server) => {
      const reply = await server.callTool(tool, args(), 120_000);
      if (reply.tool.isError) throw new Error(`${tool}: ${JSON.stringify(reply.tool.content).slice(0, 200)}`);
      return { ms: reply.ms, extra: { bytes: reply.bytes } };
    });
}

const gitCli = (repo: GitBenchRepo, ...args: string[]): Maker => () => commandRunner('git', ['-C', repo.dir, ...args]);
/** `git grep`, for which finding nothing (exit code 1) is an answer. */
const gitGrepCli = (repo: GitBenchRepo, ...args: string[]): Maker => () => commandRunner('git', ['-C', repo.dir, 'grep', ...args], [0, 1]);

/** One `git cat-file --batch` reading the 100 sample files at HEAD, spawn to exit. */
function catFileBatch(repo: GitBenchRepo): Maker {
  const once = () =>
    new Promise<{ ms: number }>((resolve, reject) => {
      const started = performance.now();
      const child = spawn('git', ['-C', repo.dir, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'ignore'] });
      child.stdout.on('data', () => undefined);
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve({ ms: performance.now() - started }) : reject(new Error(`cat-file exited ${code}`))));
      child.stdin.end(repo.sample.map((file) => `HEAD:${file}\n`).join(''));
    });
  return async (): Promise<Runner> => {
    await once();
    return { run: once, finish: async () => ({}) };
  };
}

/** Our server reading the 100 sample files with git_file_at_ref: one call each, sent together as a client may pipeline them. */
function fileAtRefCalls(launch: Launch, repo: GitBenchRepo): Maker {
  return () =>
    serverRunner(launch, 'git_file_at_ref', async (server) => {
      const started = performance.now();
      const replies = await Promise.all(repo.sample.map((path) => server.callTool('git_file_at_ref', { repo_path: repo.dir, path, ref: 'HEAD' })));
      const failure = replies.find((reply) => reply.tool.isError);
      if (failure) throw new Error(JSON.stringify(failure.tool.content).slice(0, 200));
      return { ms: performance.now() - started };
    });
}

/**
 * Pages 1..`page` of git_log (100 commits each) walked in order, as a client pages, `runs`
 * times: the median time of page 1 and of the last page of each walk.
 */
async function walkPages(launch: Launch, repo: GitBenchRepo, page: number, runs: number): Promise<[Sample, Sample]> {
  const server = start(launch);
  try {
    await server.initialize();
    const first: number[] = [];
    const last: number[] = [];
    for (let run = -1; run < runs; run++) {
      let cursor: string | undefined;
      for (let p = 1; p <= page; p++) {
        const reply = await server.callTool('git_log', { repo_path: repo.dir, max_count: 100, ...(cursor ? { cursor } : {}) });
        if (reply.tool.isError) throw new Error(JSON.stringify(reply.tool.content).slice(0, 200));
        if (run >= 0 && p === 1) first.push(reply.ms);
        if (run >= 0 && p === page) last.push(reply.ms);
        cursor = reply.tool.structuredContent?.nextCursor as string | undefined;
        if (!cursor && p < page) throw new Error(`git_log ended at page ${p}`);
      }
    }
    return [sample(first), sample(last)];
  } catch (error) {
    return [failed(error), failed(error)];
  } finally {
    await server.close();
  }
}

export async function measureGit(options: GitBenchOptions): Promise<{ rows: RowInput[]; details: Record<string, unknown> }> {
  const { runs, log } = options;
  const spec = ourGit(options.entry);
  if (!spec.entry) {
    log(`git: ${spec.missing}, skipped`);
    return { rows: [], details: { skipped: spec.missing } };
  }
  const repo = await ensureGitRepo(options.quick ? 2_000 : 10_000, options.quick ? 5_000 : 20_000, log);
  const launch: Launch = { spec, args: ['--repository', repo.dir] };
  const calls = Math.max(runs * 3, 10);
  const pair = async (label: string, mine: Maker, cli: Maker, n = calls): Promise<[Sample, Sample]> => {
    log(`git: ${label} (${n} runs, alternating)...`);
    const [a, b] = await interleave([mine, cli], { runs: n, warmups: 2 });
    return [a, b];
  };
  const r = repo.dir;
  const [logOurs, logCli] = await pair('git_log 100 vs git log -n100', ours(launch, 'git_log', () => ({ repo_path: r, max_count: 100 })), gitCli(repo, 'log', '-n100', CLI_LOG_FORMAT));
  const [statusOurs, statusCli] = await pair('git_status vs git status', ours(launch, 'git_status', () => ({ repo_path: r })), gitCli(repo, 'status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all'));
  const [diffOurs, diffCli] = await pair('git_diff_unstaged vs git diff', ours(launch, 'git_diff_unstaged', () => ({ repo_path: r })), gitCli(repo, 'diff', '--no-ext-diff', '--no-textconv', '--no-color'));
  const [blameOurs, blameCli] = await pair('git_blame vs git blame', ours(launch, 'git_blame', () => ({ repo_path: r, file: 'hot.txt' })), gitCli(repo, 'blame', '--porcelain', 'HEAD', '--', 'hot.txt'));
  const [grepOurs, grepCli] = await pair(
    'git_grep vs git grep',
    ours(launch, 'git_grep', () => ({ repo_path: r, pattern: repo.grepToken, max_results: 10_000 })),
    gitCli(repo, 'grep', '-n', '--null', '-I', '--full-name', '-F', '-e', repo.grepToken),
  );
  // Regexes git's own engine is not trusted with (unbounded repetition, a negated class): RE2 on
  // a worker, on the lines git finds holding the fixed text every match needs, or on every line.
  const [regexOurs, regexCli] = await pair(
    'git_grep regex (RE2, lines holding "file ") vs git grep -E',
    ours(launch, 'git_grep', () => ({ repo_path: r, pattern: REGEX_WITH_TEXT, regex: true, max_results: 10_000 })),
    gitGrepCli(repo, '-n', '--null', '-I', '--full-name', '-E', '-e', REGEX_WITH_TEXT),
  );
  const [everyOurs, everyCli] = await pair(
    'git_grep regex (RE2, every line) vs git grep -E',
    ours(launch, 'git_grep', () => ({ repo_path: r, pattern: REGEX_EVERY_LINE, regex: true, max_results: 10_000 })),
    gitGrepCli(repo, '-n', '--null', '-I', '--full-name', '-E', '-e', REGEX_EVERY_LINE),
  );
  // Linear in a line's length: the same hostile regex over a line of N and of 2N characters.
  const long = ensureLongLineRepo();
  const longLaunch: Launch = { spec, args: ['--repository', long] };
  const overLine = (file: string) => ours(longLaunch, 'git_grep', () => ({ repo_path: long, pattern: HOSTILE_REGEX, regex: true, pathspec: file }));
  const [lineN, line2N] = await pair(`git_grep ${HOSTILE_REGEX} over a line of 2N vs N characters`, overLine('n.txt'), overLine('2n.txt'), Math.max(runs, 5));
  const lastPage = Math.min(100, Math.floor(repo.commits / 100));
  log(`git: git_log pages 1..${lastPage} walked in order (${Math.max(runs, 3)} walks)...`);
  const [page1, pageN] = await walkPages(launch, repo, lastPage, Math.max(runs, 3));
  const [filesOurs, filesBatch] = await pair('100 files: git_file_at_ref vs git cat-file --batch', fileAtRefCalls(launch, repo), catFileBatch(repo), Math.max(runs, 3));
  log(`git: cold start and idle memory (${runs} launches each)...`);
  const small = await ensureSmallDir();
  const [officialStart, gitStart] = await measureStartup([{ spec: officialFilesystem(), args: [small] }, launch], runs);

  const cyanheads = 'the issue measured @cyanheads/git-mcp-server at 2.2x the CLI on git log -n100 and 3.2x on git diff (not installed here: not a same-run figure)';
  const rows: RowInput[] = [
    { measurement: 'git: git_log 100 commits vs git log -n100', unit: 'ms', ours: figure(logOurs), baseline: figure(logCli), baselineLabel: 'git CLI', target: TARGETS.vsCli, note: cyanheads },
    { measurement: 'git: git_status vs git status', unit: 'ms', ours: figure(statusOurs), baseline: figure(statusCli), baselineLabel: 'git CLI', target: TARGETS.vsCli },
    { measurement: 'git: git_diff_unstaged vs git diff (50 changed files)', unit: 'ms', ours: figure(diffOurs), baseline: figure(diffCli), baselineLabel: 'git CLI', target: TARGETS.vsCli },
    { measurement: `git: git_blame vs git blame (hot.txt, ${Math.ceil(repo.commits / 10)} lines)`, unit: 'ms', ours: figure(blameOurs), baseline: figure(blameCli), baselineLabel: 'git CLI', target: TARGETS.vsCli },
    { measurement: `git: git_grep ${repo.grepToken} vs git grep`, unit: 'ms', ours: figure(grepOurs), baseline: figure(grepCli), baselineLabel: 'git CLI', target: TARGETS.grepVsCli },
    { measurement: `git: git_grep regex ${REGEX_WITH_TEXT} (RE2 on the lines holding "file ") vs git grep -E`, unit: 'ms', ours: figure(regexOurs), baseline: figure(regexCli), baselineLabel: 'git CLI', target: TARGETS.grepVsCli },
    { measurement: `git: git_grep regex ${REGEX_EVERY_LINE} (RE2 on every line, no match) vs git grep -E`, unit: 'ms', ours: figure(everyOurs), baseline: figure(everyCli), baselineLabel: 'git CLI', target: TARGETS.everyLine,
      note: 'git writes every line of the repository for RE2 to match; git grep -E on this pattern is slower still' },
    { measurement: `git: git_grep regex ${HOSTILE_REGEX} over one line, 2N vs N characters (N = ${LONG_LINE_CHARS / 1e6}M)`, unit: 'ms', ours: figure(line2N), baseline: figure(lineN), baselineLabel: 'N', target: TARGETS.linear,
      note: "git's own engine is quadratic here: 28 s on a line of 40,000 characters" },
    { measurement: `git: git_log page ${lastPage} vs page 1 (100 commits each, paged in order)`, unit: 'ms', ours: figure(pageN), baseline: figure(page1), baselineLabel: 'page 1', target: TARGETS.page },
    { measurement: 'git: 100 files with git_file_at_ref (100 calls sent together) vs one git cat-file --batch', unit: 'ms', ours: figure(filesOurs), baseline: figure(filesBatch), baselineLabel: 'cat-file --batch', target: TARGETS.batch },
    { measurement: 'Cold start, git', unit: 'ms', ours: figure(gitStart.coldStart), baseline: figure(officialStart.coldStart), baselineLabel: 'official filesystem', target: TARGETS.coldStart,
      note: 'the official git server is Python and not installable here; the official filesystem server is the baseline the issue names' },
    { measurement: 'Idle RSS 1 s after initialize, git', unit: 'MB', ours: figure(gitStart.idleRss), baseline: figure(officialStart.idleRss), baselineLabel: 'official filesystem', target: TARGETS.idleRss },
  ];
  const details = { repository: { dir: repo.dir, commits: repo.commits, files: repo.files, generatedNow: repo.generatedNow, generationSeconds: repo.seconds }, samples: { logOurs, logCli, statusOurs, statusCli, diffOurs, diffCli, blameOurs, blameCli, grepOurs, grepCli, regexOurs, regexCli, everyOurs, everyCli, lineN, line2N, page1, pageN, filesOurs, filesBatch }, startup: { official: officialStart, git: gitStart } };
  return { rows, details };
}
