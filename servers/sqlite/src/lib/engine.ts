// The engine: a few child processes that own the SQLite connections (see engine-child.ts
// for why processes). A call waits for an idle child or is queued; a call that runs past
// the time limit, or is cancelled, kills its child, which is respawned on the next call.
// Other calls never wait behind a runaway one while another child is free.
import type { ChildProcess } from 'node:child_process';
import { CHILD_FUNCTIONS, type ChildConfig, type PageLimits } from './engine-child.js';
import { SqlError } from './errors.js';
import { databaseLocked } from './lock-probe.js';
import { childProcess } from '@mcp-reference/shared/core';

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

export interface CallOptions {
  signal?: AbortSignal;
  /** The child a cursor lives in. */
  at?: EngineSlot;
  /** Who asks (a session id): one owner's calls never take every child at once. */
  owner?: string;
}

export interface Engine {
  call<T>(op: string, request: Record<string, unknown>, options?: CallOptions): Promise<T & { at: EngineSlot }>;
  close(): Promise<void>;
}

/** The engine as one session sees it: its calls are its own (fairness, cursors). */
export function engineFor(engine: Engine, owner: string): Engine {
  return {
    call: (op, request, options = {}) => engine.call(op, { ...request, owner }, { ...options, owner }),
    close: () => engine.close(),
  };
}

interface Job {
  op: string;
  request: Record<string, unknown>;
  signal?: AbortSignal;
  /** The child a cursor lives in: the job fails if that child is gone by its turn. */
  at?: EngineSlot;
  owner: string;
  /** When the time limit of the call runs out: it counts from the call, waiting included. */
  deadline: number;
  /** Fires at the deadline while the job still waits for a child. */
  waitTimer?: NodeJS.Timeout;
  /** Cancels the job while it waits. */
  onWaitAbort?: () => void;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  index: number;
  child?: ChildProcess;
  ready?: Promise<void>;
  running?: Job & { id: number; timer: NodeJS.Timeout; onAbort: () => void };
  /** Jobs that must run in this child (a cursor's next page). */
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

/** Why a call was stopped at its time limit: a lock another process holds, or the query itself. */
function stoppedError(options: EngineOptions, job: Job): Promise<SqlError> {
  const write = options.write && (job.request.mode === 'write' || job.op === 'inspect');
  let locked = false;
  try {
    locked = databaseLocked(options.dbPath, write);
  } catch {
    // No verdict: the plain time-limit answer.
  }
  if (!locked) return Promise.resolve(timeoutError(options));
  return Promise.resolve(
    new SqlError(
      `The database is locked by another process (it holds the ${write ? 'write' : 'exclusive'} lock): the statement waited ${options.timeoutMs} ms for it and was stopped; nothing was changed. ` +
        'Try again once that process has finished its transaction.',
      'locked',
    ),
  );
}

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
    const child = childProcess().spawn(process.execPath, ['-e', source], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      // V8's serialization: a page of rows as JSON bytes (engine-child.ts) is copied across,
      // where the JSON channel would escape every quote in it and parse it back.
      serialization: 'advanced',
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
        slot.running = { op: READ_AHEAD, request: {}, owner: job.owner, deadline: Date.now() + options.timeoutMs, resolve: () => undefined, reject: () => undefined, id: job.id, timer, onAbort: () => undefined };
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
    schedule();
  };

  // Calls not bound to a child, oldest first; each takes the first free child its owner may use.
  const waiting: Job[] = [];
  const runningFor = (owner: string) => slots.filter((slot) => slot.running && slot.running.owner === owner).length;
  // One owner (a session) may hold every child but one, so another session's call always
  // finds a child free of it: its runaways cannot starve the others.
  const share = () => Math.max(1, maxSlots - 1);

  const schedule = () => {
    if (closed) return;
    for (const slot of slots) if (!slot.running && slot.queue.length) run(slot, slot.queue.shift()!);
    for (let i = 0; i < waiting.length; ) {
      const job = waiting[i];
      if (runningFor(job.owner) >= share()) {
        i++;
        continue;
      }
      let slot = slots.find((candidate) => !candidate.running && candidate.queue.length === 0);
      if (!slot && slots.length < maxSlots) {
        slot = { index: slots.length, queue: [], generation: 0 };
        slots.push(slot);
      }
      if (!slot) break;
      waiting.splice(i, 1);
      run(slot, job);
    }
    // Calls running side by side on every child, and room for one more: start it now, so
    // the next call (another session's, when these are one session's runaways) does not
    // wait for a process to start. (One call at a time, the common case, starts no spare.)
    if (slots.length >= 2 && slots.length < maxSlots && slots.every((slot) => slot.running)) {
      const spare: Slot = { index: slots.length, queue: [], generation: 0 };
      slots.push(spare);
      start(spare).catch(() => undefined);
    }
  };

  const run = (slot: Slot, job: Job) => {
    clearTimeout(job.waitTimer);
    if (job.onWaitAbort) job.signal?.removeEventListener('abort', job.onWaitAbort);
    if (job.signal?.aborted) {
      job.reject(job.signal.reason as Error);
      return;
    }
    const gone = job.at && expired(slot, job.at);
    if (gone) {
      job.reject(gone);
      return;
    }
    const id = nextId++;
    // The caller hears of the stop only once the child is gone, so its locks are released
    // and another process can write at once.
    const stop = (error: Error | (() => Promise<Error>)) => {
      const child = slot.child;
      kill(slot);
      const exited = !child || child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));
      clearTimeout(slot.running!.timer);
      void exited
        .then(() => (typeof error === 'function' ? error() : error))
        .then((reason) => finish(slot, () => job.reject(reason)));
    };
    const onAbort = () => stop(job.signal!.reason as Error);
    // What is left of the call's time, counted from when the child has the statement (a
    // child that had to be started first does not eat into it).
    const left = Math.max(job.deadline - Date.now(), Math.min(options.timeoutMs, 100));
    slot.running = { ...job, id, timer: undefined as unknown as NodeJS.Timeout, onAbort };
    job.signal?.addEventListener('abort', onAbort, { once: true });
    start(slot).then(
      () => {
        // Stopped while its child started (cancelled): the child is gone, and stop() answers the call.
        if (slot.running?.id !== id || !slot.child) return;
        slot.running.timer = setTimeout(() => stop(() => stoppedError(options, job)), left);
        slot.child!.send({ id, op: job.op, request: job.request });
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

  return {
    call(op, request, callOptions = {}) {
      if (closed) return Promise.reject(new SqlError('The server is shutting down.'));
      const at = callOptions.at;
      const slot = at === undefined ? undefined : slots[at.slot];
      if (at !== undefined) {
        const gone = expired(slot, at);
        if (gone) return Promise.reject(gone);
      }
      return new Promise((resolve, reject) => {
        const job: Job = {
          op,
          request,
          signal: callOptions.signal,
          at,
          owner: callOptions.owner ?? '',
          deadline: Date.now() + options.timeoutMs,
          resolve: resolve as (value: unknown) => void,
          reject,
        };
        // A call still waiting for a child when its time is up is answered then. (A cursor's
        // next page waits only behind that cursor's own reading, which has its own limit.)
        if (!slot) {
          job.waitTimer = setTimeout(() => {
            const index = waiting.indexOf(job);
            if (index < 0) return;
            waiting.splice(index, 1);
            if (job.onWaitAbort) job.signal?.removeEventListener('abort', job.onWaitAbort);
            job.reject(new SqlError(`The query waited ${options.timeoutMs} ms for a free engine process (other calls were running) and was not started. Try again, or stop the long queries first.`, 'timeout'));
          }, options.timeoutMs);
        }
        // Until the job starts (run() removes it): a listener left on a request's signal
        // keeps that signal, and the answer its promise holds, alive for the whole session.
        job.onWaitAbort = () => {
          const queue = slot ? slot.queue : waiting;
          const index = queue.indexOf(job);
          if (index < 0) return;
          queue.splice(index, 1);
          clearTimeout(job.waitTimer);
          job.reject(job.signal!.reason as Error);
        };
        // (A cursor's next page waits only behind that cursor's own reading: run() sees an abort.)
        if (!slot) job.signal?.addEventListener('abort', job.onWaitAbort, { once: true });
        (slot ? slot.queue : waiting).push(job);
        schedule();
      });
    },
    async close() {
      closed = true;
      if (hooked) process.off('exit', killAll);
      for (const job of waiting.splice(0)) {
        clearTimeout(job.waitTimer);
        if (job.onWaitAbort) job.signal?.removeEventListener('abort', job.onWaitAbort);
        job.reject(new SqlError('The server is shutting down.'));
      }
      for (const slot of slots) {
        for (const job of slot.queue.splice(0)) {
          clearTimeout(job.waitTimer);
          if (job.onWaitAbort) job.signal?.removeEventListener('abort', job.onWaitAbort);
          job.reject(new SqlError('The server is shutting down.'));
        }
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
