import { definitionsFor, type DirectorySet } from '@mcp-reference/shared';
import type { Repo } from './lib/repo.js';
import type { GitRunner } from './lib/safe-git.js';

/** The repositories one session may use (CLI ceiling narrowed by its roots). */
export interface RepoAccess {
  /** Work-tree roots (or, with no --repository, root directories) this session may use. */
  allowed(): Promise<DirectorySet>;
  /** Resolves a client's repo_path to its repository, or throws an AccessError saying why not. */
  resolve(repoPath: string): Promise<Repo>;
  /** Every allowed repository (for listings and completions). */
  repositories(): Promise<Repo[]>;
  /** The allowed repository with this URI id. */
  byId(id: string): Promise<Repo | undefined>;
}

/** What every handler of this server sees besides the base context. */
export interface GitContext {
  repos: RepoAccess;
  git: GitRunner;
  /** Cap on diff/file text returned in one result. */
  maxOutputBytes: number;
}

export const { defineTool, defineResource, defineResourceTemplate, definePrompt } = definitionsFor<GitContext>();
