import type { Repo } from './repo.js';
import type { GitRunner } from './safe-git.js';
import { ArgumentError } from './validate.js';
import { linesIn, TextSlicer, type SliceRange, type TextSlice } from './text-slice.js';

/** A part of a file at a commit (see readBlob), and the file's size in bytes. */
export interface BlobSlice extends TextSlice {
  size: number;
}

/** A blob up to this many times the limit comes whole from the persistent cat-file process. */
const WHOLE_READ_FACTOR = 8;

/**
 * A file at a commit, read with `cat-file` (no filters, no textconv): lines start_line..end_line,
 * or the bytes from start_byte, capped at `maxBytes` and cut where the answer can be read on
 * from (next_line, next_byte). A blob of up to 8x the cap comes whole from the persistent
 * cat-file process; a larger one is streamed from a one-off `git cat-file blob`, which is stopped
 * once the part asked for is read, so any part of a file of any size can be reached in memory
 * bounded by the cap; `onData` hears how many bytes of it were read so far (progress).
 */
export async function readBlob(git: GitRunner, repo: Repo, commit: string, file: string, options: SliceRange & { signal?: AbortSignal; onData?: (bytes: number) => void }): Promise<BlobSlice> {
  const { signal, onData, ...range } = options;
  if (range.start_byte !== undefined && (range.start_line !== undefined || range.end_line !== undefined)) {
    throw new ArgumentError('Give start_byte, or start_line/end_line, not both.');
  }
  if (range.end_line !== undefined && range.end_line < (range.start_line ?? 1)) {
    throw new ArgumentError(`end_line ${range.end_line} is before start_line ${range.start_line ?? 1}.`);
  }
  const object = `${commit}:${file}`;
  const found = await git.catFile(repo, object, range.maxBytes * WHOLE_READ_FACTOR, signal);
  if (found.type !== 'blob') {
    throw new ArgumentError(found.type === 'tree' ? `${file} is a directory at ${commit.slice(0, 12)}.` : `${file} does not exist at ${commit.slice(0, 12)}.`);
  }
  const size = found.size;
  if (range.start_byte !== undefined && range.start_byte > size) {
    throw new ArgumentError(`start_byte ${range.start_byte} is past the end of ${file}, which has ${size} bytes.`);
  }
  const slicer = new TextSlicer(range, { name: file });
  if (found.data !== undefined) {
    slicer.push(found.data);
    return { size, ...slicer.finish(linesIn(found.data)) };
  }
  const run = await git.run(repo, ['cat-file', 'blob', object], { signal, onData, onChunk: (chunk) => slicer.push(chunk) });
  // Read to its end only when git ended on its own: the slicer never said it had enough.
  return { size, ...slicer.finish(run.truncated ? undefined : slicer.linesSeen) };
}
