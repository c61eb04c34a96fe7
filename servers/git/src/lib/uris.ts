// The resource URI scheme (documented in the README). `{repo}` is `<dir name>-<8 hex of
// the real path>`, so two repositories with the same directory name stay apart.
//   git://{repo}/HEAD                 what HEAD points to, and its recent log
//   git://{repo}/status               the work tree's status
//   git://{repo}/branch/{+branch}     a branch: its head commit and recent log
//   git://{repo}/tag/{+tag}           a tag and the commit it names
//   git://{repo}/commit/{sha}         a commit with its diff
//   git://{repo}/file/{ref}/{+path}   a file at a ref (ref percent-encoded as one segment)

const segments = (value: string) => value.split('/').map(encodeURIComponent).join('/');

export const uris = {
  head: (repo: string) => `git://${repo}/HEAD`,
  status: (repo: string) => `git://${repo}/status`,
  branch: (repo: string, name: string) => `git://${repo}/branch/${segments(name)}`,
  tag: (repo: string, name: string) => `git://${repo}/tag/${segments(name)}`,
  commit: (repo: string, sha: string) => `git://${repo}/commit/${sha}`,
  file: (repo: string, ref: string, file: string) => `git://${repo}/file/${encodeURIComponent(ref)}/${segments(file)}`,
};

export type ParsedUri =
  | { kind: 'head' | 'status'; repo: string }
  | { kind: 'branch' | 'tag'; repo: string; name: string }
  | { kind: 'commit'; repo: string; sha: string }
  | { kind: 'file'; repo: string; ref: string; path: string };

/** The parts of one of this server's URIs; undefined for any other URI. */
export function parseUri(uri: string): ParsedUri | undefined {
  const m = /^git:\/\/([^/]+)\/(HEAD|status|branch|tag|commit|file)(?:\/(.*))?$/.exec(uri);
  if (!m) return undefined;
  const [, repo, kind, rest = ''] = m;
  try {
    if (kind === 'HEAD' || kind === 'status') return rest ? undefined : { kind: kind === 'HEAD' ? 'head' : 'status', repo };
    if (kind === 'branch' || kind === 'tag') return rest ? { kind, repo, name: decodeURIComponent(rest) } : undefined;
    if (kind === 'commit') return /^[0-9a-f]{4,64}$/.test(rest) ? { kind, repo, sha: rest } : undefined;
    const slash = rest.indexOf('/');
    if (slash <= 0) return undefined;
    return { kind: 'file', repo, ref: decodeURIComponent(rest.slice(0, slash)), path: decodeURIComponent(rest.slice(slash + 1)) };
  } catch {
    return undefined;
  }
}
