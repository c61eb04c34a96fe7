import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** What every server has, because every server starts as a copy of servers/_template. */
export const TEMPLATE_FILES = [
  'README.md',
  'package.json',
  'tsconfig.json',
  'src/cli.ts',
  'src/server.ts',
  'src/options.ts',
  'src/tools/index.ts',
  'src/resources/index.ts',
  'src/prompts/index.ts',
  'src/contract.test.ts',
  'src/robustness.test.ts',
] as const;

/**
 * The server folders under `servers/`. A private package there (`servers/_conformance`,
 * the conformance suite's fixture) is a test fixture, not a server: it is not published,
 * packaged or held to the template.
 */
export function serverDirs(repoRoot: string): string[] {
  const root = path.join(repoRoot, 'servers');
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(root, entry.name))
    .filter((dir) => !isPrivate(dir));
}

function isPrivate(dir: string): boolean {
  const file = path.join(dir, 'package.json');
  return existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).private === true;
}

export function missingTemplateFiles(serverDir: string): string[] {
  return TEMPLATE_FILES.filter((file) => !existsSync(path.join(serverDir, file)));
}
