/**
 * A budget of bytes in flight, shared by the reads of one server instance (all sessions):
 * a read reserves the bytes it is about to hold, waits while the budget is spent, and
 * releases them when done. 60 concurrent reads of a large file then hold at most `limit`
 * bytes of file content at once, instead of 60 times the file.
 *
 * Waiters are served in order. A reservation larger than the whole budget is clamped to
 * it, so it runs alone rather than never.
 */
export interface ByteBudget {
  /** Waits until `bytes` fit, takes them, and returns the function that gives them back (once). */
  reserve(bytes: number): Promise<() => void>;
  /** Bytes reserved now. */
  inFlight(): number;
  /** Most bytes ever reserved at once (for tests and measurements). */
  peak(): number;
}

export function createByteBudget(limit: number): ByteBudget {
  let used = 0;
  let peak = 0;
  const waiting: { bytes: number; grant: () => void }[] = [];
  const take = (bytes: number) => {
    used += bytes;
    peak = Math.max(peak, used);
  };
  const pump = () => {
    while (waiting.length > 0 && used + waiting[0].bytes <= limit) {
      const next = waiting.shift()!;
      take(next.bytes);
      next.grant();
    }
  };
  return {
    async reserve(requested: number) {
      const bytes = Math.min(limit, Math.max(0, Math.ceil(requested)));
      if (waiting.length === 0 && used + bytes <= limit) take(bytes);
      else await new Promise<void>((grant) => waiting.push({ bytes, grant }));
      let released = false;
      return () => {
        if (released) return;
        released = true;
        used -= bytes;
        pump();
      };
    },
    inFlight: () => used,
    peak: () => peak,
  };
}
