import { SqlError } from './errors.js';

/** Most characters in one insight: a finding is a sentence or a paragraph, not data. */
export const MAX_INSIGHT_CHARS = 10_000;
/**
 * Most characters the memo holds, all insights together. Every session adds to the same memo
 * and it is read whole (memo://insights): unbounded, it grew with every call and, past the
 * result budget, could no longer be read at all.
 */
export const MAX_MEMO_CHARS = 1_000_000;

/** The business insights memo of the official server: appended to, read as memo://insights. */
export interface Insights {
  /** Throws SqlError, adding nothing, for an insight over MAX_INSIGHT_CHARS or one the memo has no room for. */
  add(insight: string): void;
  readonly all: readonly string[];
  memo(): string;
}

export function createInsights(): Insights {
  const items: string[] = [];
  let chars = 0;
  const count = (n: number) => n.toLocaleString('en');
  return {
    add(insight) {
      if (insight.length > MAX_INSIGHT_CHARS) {
        throw new SqlError(`The insight has ${count(insight.length)} characters; one holds at most ${count(MAX_INSIGHT_CHARS)}. State the finding in a few sentences; the data stays in the database. Nothing was added.`);
      }
      if (chars + insight.length > MAX_MEMO_CHARS) {
        throw new SqlError(
          `The insights memo is full: its ${count(items.length)} insights hold ${count(chars)} characters, and at most ${count(MAX_MEMO_CHARS)} fit (memo://insights is read whole). Nothing was added; the memo lasts as long as the server.`,
        );
      }
      items.push(insight);
      chars += insight.length;
    },
    get all() {
      return items;
    },
    memo() {
      if (items.length === 0) return 'No business insights have been discovered yet.';
      return `📊 Business Intelligence Memo 📊\n\nKey Insights Discovered:\n\n${items.map((i) => `- ${i}`).join('\n')}\n` +
        (items.length > 1 ? `\nSummary:\nAnalysis has revealed ${items.length} key business insights that suggest opportunities for strategic optimization and growth.\n` : '');
    },
  };
}
