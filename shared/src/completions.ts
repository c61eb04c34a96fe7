/** The spec caps a completion answer at 100 values; `total` and `hasMore` tell the rest. */
export const MAX_COMPLETIONS = 100;

export interface CompletionAnswer {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

export function capCompletions(values: readonly string[]): CompletionAnswer {
  const unique = [...new Set(values)];
  return {
    values: unique.slice(0, MAX_COMPLETIONS),
    total: unique.length,
    hasMore: unique.length > MAX_COMPLETIONS,
  };
}

/** Keeps the candidates that start with what the user typed (case-insensitive), in order. */
export function filterByPrefix(candidates: Iterable<string>, typed: string): string[] {
  const prefix = typed.toLowerCase();
  const out: string[] = [];
  for (const candidate of candidates) if (candidate.toLowerCase().startsWith(prefix)) out.push(candidate);
  return out;
}
