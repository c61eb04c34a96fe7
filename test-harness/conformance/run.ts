// Conformance runner: `pnpm conformance <server>|all [--only a,b]`, bundled to
// test-harness/dist/conformance.js. Starts servers/<server>/dist/cli.js over Streamable HTTP,
// runs every conformance scenario that applies to a server other than the suite's own
// reference fixture, prints a PASS/FAIL/SKIP table and exits 1 if any applicable scenario
// failed. What each scenario demands of a server: README.md beside this file.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE_SERVER, GENERIC, formatTable, listServers, repoRoot, runConformance } from './conformance.js';

function usage(message?: string): never {
  if (message) console.error(`conformance: ${message}`);
  console.error('usage: conformance <server>|all [<server> ...] [--only scenario,scenario] [--quiet]');
  console.error('  <server> is a folder under servers/ (e.g. _template, filesystem); all = every built one');
  process.exit(2);
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const names: string[] = [];
  let only: string[] | undefined;
  let quiet = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--only') {
      const v = argv[++i];
      if (!v) usage('--only needs a comma-separated list of scenarios');
      only = v.split(',').filter(Boolean);
    } else if (a === '--quiet') quiet = true;
    else if (a === '-h' || a === '--help') usage();
    else if (a.startsWith('-')) usage(`unknown option ${a}`);
    else names.push(a);
  }
  if (names.length === 0) usage('name a server');
  // Any scenario of a requirement set may be named: the fixture server runs them all.
  const generic = new Set(Object.values(GENERIC).flatMap((list) => list.map((scenario) => scenario.name)));
  const unknown = only?.filter((s) => !generic.has(s)) ?? [];
  if (unknown.length > 0 && !names.every((name) => name === FIXTURE_SERVER)) {
    console.error(`conformance: note: ${unknown.join(', ')} run only on servers/${FIXTURE_SERVER} (they need the suite's fixture)`);
  }

  const root = repoRoot();
  let servers: string[];
  if (names.includes('all')) {
    servers = listServers(root, true);
    if (servers.length === 0) usage('no server under servers/ has dist/cli.js: run pnpm build first');
  } else {
    servers = names;
    for (const s of servers) {
      if (!existsSync(join(root, 'servers', s, 'package.json'))) {
        usage(`no server ${s} under servers/ (have: ${listServers(root).join(', ')})`);
      }
    }
  }

  const log = quiet ? () => {} : (line: string) => console.error(line);
  let failed = 0;
  const started = Date.now();
  for (const s of servers) {
    try {
      const rows = await runConformance(join(root, 'servers', s), { only, log });
      console.log(`\n${formatTable(s, rows)}`);
      failed += rows.filter((r) => r.status === 'FAIL').length;
    } catch (err) {
      console.log(`\nconformance: ${s}\n  ERROR  ${err instanceof Error ? err.message : String(err)}`);
      failed += 1;
    }
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\nconformance: ${servers.length} server(s) in ${secs} s, ${failed === 0 ? 'all applicable scenarios pass' : `${failed} failure(s)`}`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
