import { narrowScopes, rootPaths } from '@mcp-reference/shared/core';
import type { Root } from '@mcp-reference/shared/core';
import { realpathAllowedDirs } from './path-policy.js';

/**
 * The allowed directories of one session: the CLI directories are a ceiling, client
 * roots narrow it (ARCHITECTURE.md section 3). Roots are resolved to real paths first,
 * so a root that is a symlink into the ceiling is judged by where it leads.
 */
export async function allowedDirectories(ceiling: readonly string[], roots: readonly Root[] | undefined): Promise<string[]> {
  if (roots === undefined || roots.length === 0) return narrowScopes(ceiling, undefined);
  const usable = (await realpathAllowedDirs(rootPaths(roots) ?? [])).directories;
  // Roots the client named but that cannot be used (missing, not local files) narrow
  // access to nothing; falling back to the ceiling would widen what the client asked for.
  if (usable.length === 0) return [];
  return narrowScopes(ceiling, usable);
}
