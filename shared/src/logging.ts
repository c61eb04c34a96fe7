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
 */
export function createStderrLogger(name: string, threshold: LogLevel): Logger {
  return {
    log(level, message, data) {
      if (!levelAtLeast(level, threshold)) return;
      const suffix = data === undefined ? '' : ` ${safeJson(data)}`;
      process.stderr.write(`[${name}] ${level}: ${message}${suffix}\n`);
    },
  };
}

export const silentLogger: Logger = { log() {} };

function safeJson(data: unknown): string {
  try {
    return JSON.stringify(data);
  } catch {
    return String(data);
  }
}
