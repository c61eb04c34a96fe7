import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { DirectorySet } from '@mcp-reference/shared/core';
import type { Repo } from './repo.js';
import type { GitRunner } from './safe-git.js';
import { ArgumentError, assertNotOption } from './validate.js';

/**
 * Settings for the git that runs at the other end of a local remote, in that
 * repository, with its config and hooks: they are as untrusted as ours, and git clears
 * GIT_CONFIG_PARAMETERS for a local transport, so our own `-c` settings do not reach it.
 * Hooks off (pre-receive, update, post-receive, post-update, reference-transaction,
 * proc-receive, push-to-checkout), no checkout in its work tree (`updateInstead` would
 * run its filters), no gc, no fsmonitor, no alternate-refs program.
 */
const LOCAL_END = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.alternateRefsCommand=',
  'receive.denyCurrentBranch=refuse',
  'receive.autogc=false',
  'gc.auto=0',
  'maintenance.auto=false',
].flatMap((setting) => ['-c', setting]);

/**
 * The program run at the other end, given on the command line, which wins over
 * `remote.<name>.uploadpack`/`receivepack` in the repository's config (a `-c` would not:
 * git warns "more than one uploadpack given" and uses the first). For a network remote
 * it is git's own name (a server accepts nothing else); for a local one, git run through
 * the shell with LOCAL_END.
 */
export function packProgram(direction: 'fetch' | 'push', local: boolean): string {
  const option = direction === 'fetch' ? '--upload-pack' : '--receive-pack';
  const program = direction === 'fetch' ? 'upload-pack' : 'receive-pack';
  return local ? `${option}=git ${LOCAL_END.join(' ')} ${program}` : `${option}=git-${program}`;
}

/** A remote the repository already has, checked for use by fetch, pull or push. */
export interface CheckedRemote {
  name: string;
  url: string;
  /** `-c` settings for this operation: the transports allowed, the user's own ssh and credential helpers. */
  config: string[];
  /** `--upload-pack=...` or `--receive-pack=...` (see `packProgram`). */
  pack: string;
}

type Transport = 'https' | 'ssh' | 'git' | 'file';

/**
 * Which transport a remote URL (after insteadOf rewriting) uses, or why it is refused.
 * Only https, ssh and git are allowed; `<helper>::` URLs (ext::, fd::), plain http and
 * anything else are refused; file:// and local paths only when they lead inside the
 * allowed repositories.
 */
export async function transportOf(url: string, repo: Repo, areas: DirectorySet): Promise<Transport> {
  if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(url)) throw new ArgumentError(`The remote URL ${url} uses a remote helper ("::"); only https, ssh and git remotes are allowed.`);
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(url)?.[1]?.toLowerCase();
  const hostOf = (rest: string) => rest.replace(/^[^@/]*@/, '');
  if (scheme === 'https' || scheme === 'git' || scheme === 'ssh' || scheme === 'git+ssh' || scheme === 'ssh+git') {
    const host = hostOf(url.slice(url.indexOf('://') + 3));
    if (host.startsWith('-')) throw new ArgumentError(`The remote URL ${url} has a host starting with "-". Refused.`);
    return scheme === 'https' ? 'https' : scheme === 'git' ? 'git' : 'ssh';
  }
  let local: string | undefined;
  if (scheme === 'file') local = decodeURIComponent(url.slice('file://'.length));
  else if (scheme !== undefined) throw new ArgumentError(`The remote URL ${url} uses ${scheme}://; only https, ssh and git remotes are allowed.`);
  else {
    // scp-like "user@host:path" is ssh when a colon comes before any slash.
    const colon = url.indexOf(':');
    const slash = url.indexOf('/');
    if (colon > 0 && (slash === -1 || colon < slash)) {
      if (hostOf(url).startsWith('-')) throw new ArgumentError(`The remote URL ${url} has a host starting with "-". Refused.`);
      return 'ssh';
    }
    local = url;
  }
  const real = await realpath(path.resolve(repo.root, local)).catch(() => undefined);
  if (real === undefined || !areas.holds(real)) {
    throw new ArgumentError(`The remote URL ${url} is a local path outside the allowed repositories. Refused.`);
  }
  return 'file';
}

/** The user's own (system/global) values of a multi-valued key: trusted, unlike the repository's. */
async function trustedValues(git: GitRunner, repo: Repo, key: string, signal?: AbortSignal): Promise<string[]> {
  const { stdout } = await git.run(repo, ['config', '--show-scope', '--get-all', '-z', key], { signal, okCodes: [1] });
  const values: string[] = [];
  // With -z each entry is "scope\0value\0".
  const fields = stdout.toString('utf8').split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === 'system' || fields[i] === 'global') values.push(fields[i + 1]);
  }
  return values;
}

/**
 * Checks a configured remote for a network operation: it must exist, have no
 * `remote.<name>.vcs` helper, and its fetch (or push) URL must pass `transportOf`.
 */
export async function checkRemote(
  git: GitRunner,
  repo: Repo,
  name: string,
  areas: DirectorySet,
  direction: 'fetch' | 'push',
  signal?: AbortSignal,
): Promise<CheckedRemote> {
  assertNotOption(name, 'remote');
  const remotes = (await git.run(repo, ['remote'], { signal })).stdout.toString('utf8').split('\n').filter(Boolean);
  if (!remotes.includes(name)) {
    throw new ArgumentError(`There is no remote "${name}" in ${repo.root}${remotes.length ? ` (remotes: ${remotes.join(', ')})` : ''}. This server only uses remotes already configured.`);
  }
  const vcs = await git.run(repo, ['config', '--get', `remote.${name}.vcs`], { signal, okCodes: [1] });
  if (vcs.code === 0) throw new ArgumentError(`Remote "${name}" uses a remote helper (remote.${name}.vcs). Refused.`);
  const urls = (await git.run(repo, ['remote', 'get-url', '--all', ...(direction === 'push' ? ['--push'] : []), name], { signal })).stdout
    .toString('utf8')
    .split('\n')
    .filter(Boolean);
  if (urls.length === 0) throw new ArgumentError(`Remote "${name}" has no URL.`);
  const transports = new Set<Transport>();
  for (const url of urls) transports.add(await transportOf(url, repo, areas));
  const config: string[] = [];
  if (transports.has('file') && transports.size > 1) {
    throw new ArgumentError(`Remote "${name}" mixes a local path with network URLs (${urls.join(', ')}); use one remote for each. Refused.`);
  }
  for (const transport of transports) config.push('-c', `protocol.${transport}.allow=always`);
  config.push('-c', 'fetch.recurseSubmodules=false', '-c', 'push.recurseSubmodules=no', '-c', 'push.followTags=false');
  const ssh = (await trustedValues(git, repo, 'core.sshCommand', signal)).pop();
  config.push('-c', `core.sshCommand=${ssh ?? 'ssh -o BatchMode=yes'}`);
  for (const helper of await trustedValues(git, repo, 'credential.helper', signal)) config.push('-c', `credential.helper=${helper}`);
  return { name, url: urls[0], config, pack: packProgram(direction, transports.has('file')) };
}
