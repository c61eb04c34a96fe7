import { close, closeSync, fstatSync, read, readFile } from 'node:fs';
import type { BigIntStats, Stats } from 'node:fs';

/**
 * An open file as the readers use it: the part of `FileHandle` that read_text_file,
 * read_media_file, edit_file and file resources need. A `FileHandle` is one, and so is a
 * `Descriptor`.
 */
export interface ReadableFile {
  readonly fd: number;
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  stat(options?: { bigint?: false }): Promise<Stats>;
  stat(options: { bigint: true }): Promise<BigIntStats>;
  /** The rest of the file from the current position (the start, for a file just opened). */
  readFile(): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * A plain descriptor behind the `ReadableFile` interface, for the reads of one call
 * (head, tail, a range, a whole file). Reads go through the thread pool like any file read;
 * fstat and close are synchronous: neither waits on a disk for a file opened for reading,
 * and each trip through the pool costs more than the call itself (a good part of a head
 * or tail call). Like a `FileHandle`, it closes only after the reads in flight on it have
 * finished, so a read never lands on a descriptor number reused by another open; unlike
 * one, it is not closed by the garbage collector: whoever opens it closes it.
 */
export class Descriptor implements ReadableFile {
  private open = true;
  private pending = 0;
  private closing: { resolve: () => void; reject: (error: unknown) => void }[] = [];

  constructor(readonly fd: number) {}

  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }> {
    return this.track(
      (done: (error: NodeJS.ErrnoException | null, bytesRead: number) => void) => read(this.fd, buffer, offset, length, position, done),
      (bytesRead) => ({ bytesRead }),
    );
  }

  stat(options?: { bigint?: false }): Promise<Stats>;
  stat(options: { bigint: true }): Promise<BigIntStats>;
  stat(options?: { bigint?: boolean }): Promise<Stats | BigIntStats> {
    if (!this.open) return Promise.reject(closedError('fstat'));
    try {
      return Promise.resolve(options?.bigint ? fstatSync(this.fd, { bigint: true }) : fstatSync(this.fd));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  readFile(): Promise<Buffer> {
    return this.track((done: (error: NodeJS.ErrnoException | null, data: Buffer) => void) => readFile(this.fd, done), (data) => data);
  }

  /** Closes once the reads in flight are done; closing again does nothing. */
  close(): Promise<void> {
    if (!this.open) return Promise.resolve();
    this.open = false;
    if (this.pending === 0) return closeNow(this.fd);
    return new Promise((resolve, reject) => this.closing.push({ resolve, reject }));
  }

  private track<R, T>(start: (done: (error: NodeJS.ErrnoException | null, result: R) => void) => void, wrap: (result: R) => T): Promise<T> {
    if (!this.open) return Promise.reject(closedError('read'));
    this.pending++;
    return new Promise<T>((resolve, reject) => {
      start((error, result) => {
        if (--this.pending === 0 && !this.open) this.finishClose();
        if (error) reject(error);
        else resolve(wrap(result));
      });
    });
  }

  private finishClose() {
    const waiting = this.closing;
    this.closing = [];
    // A close that fails asynchronously still reports to whoever asked for it.
    close(this.fd, (error) => {
      for (const { resolve, reject } of waiting) {
        if (error) reject(error);
        else resolve();
      }
    });
  }
}

function closeNow(fd: number): Promise<void> {
  try {
    closeSync(fd);
    return Promise.resolve();
  } catch (error) {
    return Promise.reject(error);
  }
}

function closedError(syscall: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`EBADF: file already closed, ${syscall}`), { code: 'EBADF', syscall });
}
