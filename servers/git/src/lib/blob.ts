import type { Repo } from './repo.js';
import type { GitRunner } from './safe-git.js';
import { ArgumentError } from './validate.js';

export interface BlobSlice {
  content: string;
  binary: boolean;
  size: number;
  total_lines: number;
  truncated: boolean;
}

/** A file at a commit, read with `cat-file` (no filters, no textconv), sliced to lines and capped. */
export async function readBlob(
  git: GitRunner,
  repo: Repo,
  commit: string,
  file: string,
  options: { signal?: AbortSignal; maxBytes: number; start_line?: number; end_line?: number },
): Promise<BlobSlice> {
  const object = `${commit}:${file}`;
  const ranged = options.start_line !== undefined || options.end_line !== undefined;
  // A line range may need more than the cap of raw bytes: read up to 8x, then cut the slice.
  const limit = ranged ? options.maxBytes * 8 : options.maxBytes;
  const found = await git.catFile(repo, object, limit, options.signal);
  if (found.type !== 'blob') {
    throw new ArgumentError(found.type === 'tree' ? `${file} is a directory at ${commit.slice(0, 12)}.` : `${file} does not exist at ${commit.slice(0, 12)}.`);
  }
  const size = found.size;
  let stdout = found.data;
  if (stdout === undefined) {
    // Larger than the limit: the first `limit` bytes, from a one-off process that is stopped there.
    stdout = (await git.run(repo, ['cat-file', 'blob', object], { signal: options.signal, maxBytes: limit })).stdout;
  }
  const readCut = stdout.length < size;
  if (stdout.subarray(0, 8000).includes(0)) return { content: '', binary: true, size, total_lines: 0, truncated: false };
  const text = stdout.toString('utf8');
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let content = text;
  let truncated = readCut;
  if (ranged) {
    const start = options.start_line ?? 1;
    const end = options.end_line ?? lines.length;
    content = lines.slice(start - 1, end).join('\n');
    truncated = readCut && end > lines.length;
  }
  if (Buffer.byteLength(content) > options.maxBytes) {
    content = Buffer.from(content).subarray(0, options.maxBytes).toString('utf8');
    truncated = true;
  }
  return { content, binary: false, size, total_lines: readCut ? lines.length : lines.length, truncated };
}
