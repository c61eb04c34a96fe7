// A commit's diff, loaded a page of hunks at a time from the app-only tool
// git_commit_diff, rendered unified or split: used by the log view (a clicked commit)
// and the diff view (a git_show result longer than what it carried).
import type { App } from '@modelcontextprotocol/ext-apps';
import { textOf, type ToolResultLike } from './connect.js';
import type { Hunk } from './diff.js';

export interface CommitDiffPage {
  commit: { commit: string; subject: string; author: string; date: string };
  message: string;
  files: { path: string; additions: number; deletions: number; status: string }[];
  hunks: Hunk[];
  offset: number;
  next_offset: number | null;
  total_hunks: number;
}

export async function loadCommitDiff(app: App, repo: string, rev: string, offset: number): Promise<CommitDiffPage> {
  const result = (await app.callServerTool({ name: 'git_commit_diff', arguments: { repo, rev, offset } })) as ToolResultLike;
  if (result.isError || !result.structuredContent) throw new Error(textOf(result) || 'Could not load the diff.');
  return result.structuredContent as unknown as CommitDiffPage;
}
