/** The business insights memo of the official server: appended to, read as memo://insights. */
export interface Insights {
  add(insight: string): void;
  readonly all: readonly string[];
  memo(): string;
}

export function createInsights(): Insights {
  const items: string[] = [];
  return {
    add(insight) {
      items.push(insight);
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
