// The engine: a few child processes that own the SQLite connections (see engine-child.ts
// for why processes). A call waits for an idle child or is queued; a call that runs past
// the time limit, or is cancelled, kills its child, which is respawned on the next call.
// Other calls never wait behind a runaway one while another child is free.
import { spawn, type ChildProcess } from 'node:child_process';
import { CHILD_FUNCTIONS, type ChildConfig, type PageLimits } from './engine-child.js';
import { SqlError } from './errors.js';

export interface EngineOptions {
  dbPath: string;
  write: boolean;
  timeoutMs: number;
  limits: PageLimits;
  /** Child processes at most (each runs one call at a time). */
  processes?: number;
  cursorIdleMs?: number;
  maxCursors?: number;
}

/** Which child answered: a cursor can only be continued there, and only while that child lives. */
export interface EngineSlot {
  slot: number;
  generation: number;
}

export interface Engine {
  call<T>(op: string, request: Record<string, unknown>, options?: { signal?: AbortSignal; at?: EngineSlot }): Promise<T & { at: EngineSlot }>;
  close(): Promise<void>;
}

interface Job {
  op: string;
  request: Record<string, unknown>;
  signal?: AbortSignal;
  /** The child a cursor lives in: the job fails if that child is gone by its turn. */
  at?: EngineSlot;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  index: number;
  child?: ChildProcess;
  ready?: Promise<void>;
  running?: Job & { id: number; timer: NodeJS.Timeout; onAbort: () => void };
  queue: Job[];
  /** Grows each time the child is replaced: cursors of an older child are gone. */
  generation: number;
  /** A generation whose child was stopped at the time limit while reading a cursor's next page ahead. */
  timedOutAhead?: number;
}

/** Turns a SQLite error into what the caller should read. */
function describeSqliteError(name: string, message: string, code: string | undefined, options: EngineOptions): SqlError {
  if (name === 'SqlRefused') return new SqlError(message, 'refused');
  switch (code) {
    case 'SQLITE_NOTADB':
      return new SqlError(`${options.dbPath} is not a SQLite database, or it is encrypted: ${message}.`, code);
    case 'SQLITE_CORRUPT':
      return new SqlError(`The database ${options.dbPath} is corrupt: ${message}.`, code);
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return new SqlError(`The database is locked by another connection; retried for ${options.timeoutMs} ms. Try again later.`, code);
    case 'SQLITE_CANTOPEN':
      return new SqlError(`Cannot open ${options.dbPath}: ${message}.`, code);
    case 'SQLITE_READONLY':
      return new SqlError(`The database refused a write (it is read-only here): ${message}.`, code);
    case 'SQLITE_READONLY_ROLLBACK':
      return new SqlError(`A writer that crashed left its journal behind, and a read-only connection cannot roll it back: open the database once with write access (--write) to recover it.`, code);
  }
  if (code?.startsWith('SQLITE_')) return new SqlError(`SQLite error: ${message}`, code);
  if (/is not a function|Cannot find module/.test(message)) return new SqlError(message, 'internal');
  return new SqlError(message, code);
}

/** The job that holds a slot while its child reads a cursor's next page ahead (not an op of the child). */
const READ_AHEAD = '(read ahead)';

function timeoutError(options: EngineOptions): SqlError {
  return new SqlError(`The query ran longer than ${options.timeoutMs} ms and was stopped. Add a LIMIT or a WHERE, or ask for less.`, 'timeout');
}

export function createEngine(options: EngineOptions): Engine {
  const config: ChildConfig = {
    dbPath: options.dbPath,
    write: options.write,
    busyTimeoutMs: options.timeoutMs,
    limits: options.limits,
    cursorIdleMs: options.cursorIdleMs ?? 30_000,
    maxCursors: options.maxCursors ?? 8,
  };
  const source = `${CHILD_FUNCTIONS.map(String).join('\n')}\nengineMain(${JSON.stringify(config)}, { require: require('node:module').createRequire(${JSON.stringify(import.meta.url)}) });\n`;
  const slots: Slot[] = [];
  const maxSlots = Math.max(1, options.processes ?? 3);
  let nextId = 1;
  let closed = false;

  // A child stuck in a long statement cannot hear its parent go: kill it on the way out.
  const killAll = () => {
    for (const slot of slots) slot.child?.kill('SIGKILL');
  };
  let hooked = false;

  const kill = (slot: Slot) => {
    slot.child?.removeAllListeners('exit');
    slot.child?.kill('SIGKILL');
    slot.child = undefined;
    slot.ready = undefined;
    slot.generation++;
  };

  const start = (slot: Slot): Promise<void> => {
    if (slot.ready) return slot.ready;
    if (!hooked) {
      hooked = true;
      process.on('exit', killAll);
    }
    const child = spawn(process.execPath, ['-e', source], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'json',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    slot.child = child;
    slot.ready = new Promise<void>((resolve, reject) => {
      child.once('error', reject);
      child.once('message', () => resolve());
      child.once('exit', (code, signal) => reject(new SqlError(`The SQLite engine stopped (${signal ?? code}) before it was ready.`)));
    });
    slot.ready.catch(() => undefined);
    child.on('message', (reply: { id?: number; ok?: boolean; value?: unknown; name?: string; message?: string; code?: string; ahead?: boolean; readAhead?: boolean }) => {
      const job = slot.running;
      if (reply.id === undefined || !job || job.id !== reply.id) return;
      if (job.op === READ_AHEAD) {
        if (reply.readAhead) finish(slot, () => undefined);
        return;
      }
      if (reply.ok && reply.ahead) {
        // The child goes on to read the next page of the cursor: the slot stays busy, under
        // the time limit, until it says it is done, then the next call is sent.
        clearTimeout(job.timer);
        job.signal?.removeEventListener('abort', job.onAbort);
        const generation = slot.generation;
        const timer = setTimeout(() => {
          slot.timedOutAhead = generation;
          const stopped = slot.child;
          kill(slot);
          const exited = !stopped || stopped.exitCode !== null || stopped.signalCode !== null ? Promise.resolve() : new Promise((resolve) => stopped.once('exit', resolve));
          void exited.then(() => finish(slot, () => undefined));
        }, options.timeoutMs);
        slot.running = { op: READ_AHEAD, request: {}, resolve: () => undefined, reject: () => undefined, id: job.id, timer, onAbort: () => undefined };
        job.resolve({ ...(reply.value as object), at: { slot: slot.index, generation } });
        return;
      }
      finish(slot, () => (reply.ok ? job.resolve({ ...(reply.value as object), at: { slot: slot.index, generation: slot.generation } }) : job.reject(describeSqliteError(reply.name ?? 'Error', reply.message ?? '', reply.code, options))));
    });
    child.on('exit', (code, signal) => {
      if (slot.child !== child) return;
      slot.child = undefined;
      slot.ready = undefined;
      slot.generation++;
      const job = slot.running;
      if (job) finish(slot, () => job.reject(new SqlError(`The SQLite engine stopped (${signal ?? `exit ${code}`}) during the call; it restarts on the next one.`)));
    });
    return slot.ready;
  };

  const finish = (slot: Slot, outcome: () => void) => {
    const job = slot.running;
    if (!job) return;
    clearTimeout(job.timer);
    job.signal?.removeEventListener('abort', job.onAbort);
    slot.running = undefined;
    outcome();
    pump(slot);
  };

  const pump = (slot: Slot) => {
    if (slot.running || closed) return;
    const job = slot.queue.shift();
    if (!job) return;
    if (job.signal?.aborted) {
      job.reject(job.signal.reason as Error);
      pump(slot);
      return;
    }
    const gone = job.at && expired(slot, job.at);
    if (gone) {
      job.reject(gone);
      pump(slot);
      return;
    }
    const id = nextId++;
    // The caller hears of the stop only once the child is gone, so its locks are released
    // and another process can write at once.
    const stop = (error: Error) => {
      const child = slot.child;
      kill(slot);
      const exited = !child || child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));
      clearTimeout(slot.running!.timer);
      void exited.then(() => finish(slot, () => job.reject(error)));
    };
    const onAbort = () => stop(job.signal!.reason as Error);
    const timer = setTimeout(
      () => stop(timeoutError(options)),
      options.timeoutMs,
    );
    slot.running = { ...job, id, timer, onAbort };
    job.signal?.addEventListener('abort', onAbort, { once: true });
    start(slot).then(
      () => {
        if (slot.running?.id === id) slot.child!.send({ id, op: job.op, request: job.request });
      },
      (error: Error) => {
        if (slot.running?.id === id) finish(slot, () => job.reject(error instanceof SqlError ? error : new SqlError(error.message)));
      },
    );
  };

  // Why a cursor of `at` can no longer be read, or undefined while its child lives.
  const expired = (slot: Slot | undefined, at: EngineSlot): SqlError | undefined => {
    if (slot && at.generation === slot.generation) return undefined;
    if (slot && slot.timedOutAhead === at.generation) return timeoutError(options);
    return new SqlError('This cursor has expired (its query was stopped or the engine restarted): run the query again.', 'refused');
  };

  const pick = (): Slot => {
    const idle = slots.find((slot) => !slot.running && slot.queue.length === 0);
    if (idle) return idle;
    if (slots.length < maxSlots) {
      const slot: Slot = { index: slots.length, queue: [], generation: 0 };
      slots.push(slot);
      return slot;
    }
    return slots.reduce((best, slot) => (slot.queue.length < best.queue.length ? slot : best));
  };

  return {
    call(op, request, callOptions = {}) {
      if (closed) return Promise.reject(new SqlError('The server is shutting down.'));
      const at = callOptions.at;
      const slot = at === undefined ? pick() : slots[at.slot];
      const gone = slot ? at && expired(slot, at) : expired(undefined, at!);
      if (gone || !slot) return Promise.reject(gone);
      return new Promise((resolve, reject) => {
        slot.queue.push({ op, request, signal: callOptions.signal, at, resolve: resolve as (value: unknown) => void, reject });
        pump(slot);
      });
    },
    async close() {
      closed = true;
      if (hooked) process.off('exit', killAll);
      for (const slot of slots) {
        for (const job of slot.queue.splice(0)) job.reject(new SqlError('The server is shutting down.'));
        const running = slot.running;
        if (running) finish(slot, () => running.reject(new SqlError('The server is shutting down.')));
        const child = slot.child;
        if (!child) continue;
        kill(slot);
        await new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
      }
    },
  };
}
