import { LOG_LEVELS, type LogLevel } from './types.js';

export function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

export function levelAtLeast(level: LogLevel, threshold: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}

export interface Logger {
  log(level: LogLevel, message: string, data?: unknown): void;
}

/**
 * The process log. It writes to stderr only: in stdio mode stdout carries the protocol,
 * and one stray line there breaks the client.
 *
 * A client may close its end of stderr while the server runs (or go away without reading
 * it): the next write fails with EPIPE, which Node reports as an 'error' event of the stream,
 * and an unhandled one ends the process. The log falls silent instead, and the server goes
 * on (and still ends the way it should when its input ends).
 */
export function createStderrLogger(name: string, threshold: LogLevel, stream: NodeJS.WritableStream = process.stderr): Logger {
  const gone = whenGone(stream);
  return {
    log(level, message, data) {
      if (!levelAtLeast(level, threshold) || gone()) return;
      const suffix = data === undefined ? '' : ` ${safeJson(data)}`;
      stream.write(`[${name}] ${level}: ${message}${suffix}\n`);
    },
  };
}

const GONE = Symbol.for('@mcp-reference/shared/log-stream-gone');

/**
 * Whether writing to `stream` has failed. One 'error' listener per stream, however many
 * loggers write to it (a server per test, a server per HTTP session): its state lives on the
 * stream, under a symbol.
 */
function whenGone(stream: NodeJS.WritableStream): () => boolean {
  const marked = stream as NodeJS.WritableStream & { [GONE]?: { gone: boolean } };
  let state = marked[GONE];
  if (!state) {
    const fresh = { gone: false };
    stream.on('error', () => {
      fresh.gone = true;
    });
    marked[GONE] = state = fresh;
  }
  const known = state;
  return () => known.gone || (stream as { destroyed?: boolean }).destroyed === true;
}

export const silentLogger: Logger = { log() {} };

function safeJson(data: unknown): string {
  try {
    return JSON.stringify(data);
  } catch {
    return String(data);
  }
}
