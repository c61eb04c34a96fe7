import type { BaseContext } from '@mcp-reference/shared';

/**
 * A reporter for files the server meant to read for itself and skipped (a .gitignore
 * that is a FIFO, a symlink, too large...): each is logged once per call as a warning,
 * so the client can tell why some rules did not apply.
 */
export function reportSkippedFiles(ctx: BaseContext): (file: string, reason: string) => void {
  const seen = new Set<string>();
  return (file, reason) => {
    if (seen.has(file)) return;
    seen.add(file);
    ctx.log('warning', `Skipped ${file}: ${reason}. Its ignore rules were not applied.`);
  };
}
