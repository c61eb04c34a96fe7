/** A bounded, newest-last record of the edits this server made, for the review prompt. */
export interface RecentEdit {
  path: string;
  diff: string;
  at: string;
}

export function createRecentEdits(limit = 20) {
  const edits: RecentEdit[] = [];
  return {
    add(path: string, diff: string) {
      edits.push({ path, diff, at: new Date().toISOString() });
      if (edits.length > limit) edits.splice(0, edits.length - limit);
    },
    list(filter?: (edit: RecentEdit) => boolean): RecentEdit[] {
      return filter ? edits.filter(filter) : [...edits];
    },
  };
}

export type RecentEdits = ReturnType<typeof createRecentEdits>;
