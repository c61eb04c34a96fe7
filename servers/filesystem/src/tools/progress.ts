import type { BaseContext } from '@mcp-reference/shared';

/**
 * Turns a stream of "scanned so far" counts into progress notifications at most every
 * 250 ms, so a walk over 100,000 files reports steadily without flooding the client.
 */
export function throttledProgress(ctx: BaseContext, label: string): (scanned: number) => void {
  let last = 0;
  return (scanned) => {
    const now = performance.now();
    if (now - last < 250) return;
    last = now;
    void ctx.progress(scanned, undefined, `${label}: ${scanned} entries examined`);
  };
}
