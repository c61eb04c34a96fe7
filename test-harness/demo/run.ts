// pnpm demo: a readable tour of every built server, each started over stdio with the SDK
// client (through the shared package) against a small generated fixture.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectStdio } from '@mcp-reference/shared/client';
import { scenarios } from './scenarios.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const indent = (text: string, pad = '    ') => text.split('\n').map((line) => pad + line).join('\n');
/** Long arrays shortened to their first items, so a result fits on a screen. */
const shorten = (value: unknown): unknown => {
  if (Array.isArray(value)) {
    const head = value.slice(0, 3).map(shorten);
    return value.length > 3 ? [...head, `… ${value.length - 3} more`] : head;
  }
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v)]));
  return value;
};

async function tour(folder: string, scenario: (typeof scenarios)[number]) {
  const bin = path.join(repoRoot, 'servers', folder, 'dist/cli.js');
  const fixture = await scenario.setup();
  const started = performance.now();
  const connection = await connectStdio(process.execPath, [bin, ...fixture.args], { name: 'mcp-reference-demo' });
  try {
    const info = connection.client.getServerVersion();
    console.log(bold(`\n━━ ${info?.name} ${info?.version}  (servers/${folder}, initialized in ${Math.round(performance.now() - started)} ms)`));
    console.log(`  capabilities: ${Object.keys(connection.client.getServerCapabilities() ?? {}).join(', ')}`);

    const { tools } = await connection.client.listTools();
    console.log(bold(`  tools (${tools.length})`));
    for (const tool of tools) console.log(`    ${tool.name.padEnd(26)} ${(tool.description ?? '').split('. ')[0]}`);

    const resources = await connection.client.listResources();
    const { resourceTemplates } = await connection.client.listResourceTemplates();
    console.log(bold('  resources'));
    for (const r of resources.resources.slice(0, 5)) console.log(`    ${r.uri}`);
    if (resources.nextCursor || resources.resources.length > 5) console.log('    … (paged: more with nextCursor)');
    for (const t of resourceTemplates) console.log(`    template ${t.uriTemplate}  ${t.description ?? ''}`);

    const { prompts } = await connection.client.listPrompts();
    console.log(bold('  prompts'));
    for (const p of prompts) console.log(`    ${p.name}(${(p.arguments ?? []).map((a) => (a.required ? a.name : `${a.name}?`)).join(', ')})  ${p.description}`);

    console.log(bold(`  call ${fixture.call.name} ${JSON.stringify(fixture.call.arguments)}`));
    const result = await connection.client.callTool(fixture.call);
    console.log('    structuredContent:');
    console.log(indent(JSON.stringify(shorten(result.structuredContent), null, 2), '      '));
    const links = (result.content as { type: string; uri?: string }[]).filter((c) => c.type === 'resource_link');
    console.log(`    links: ${links.map((l) => l.uri).join(', ') || '(none)'}`);

    const completion = await connection.client.complete(fixture.completion);
    console.log(bold(`  complete ${fixture.completion.argument.name}="${fixture.completion.argument.value}"`) + ` -> ${JSON.stringify(completion.completion.values.slice(0, 8))}`);

    const pattern = fixture.subscribe;
    const uri = typeof pattern === 'string' ? pattern : resources.resources.find((r) => pattern.test(r.uri))?.uri;
    if (!uri) throw new Error(`no resource in the first page of resources/list matches ${String(pattern)}`);
    await connection.client.subscribeResource({ uri });
    const changedAt = performance.now();
    await fixture.change();
    await connection.waitForNotification('notifications/resources/updated', (p) => p?.uri === uri, 10_000);
    console.log(bold(`  subscription`) + ` ${uri} fired ${Math.round(performance.now() - changedAt)} ms after an outside write`);
  } finally {
    await connection.close();
    await fixture.cleanup();
  }
}

const started = performance.now();
let failed = 0;
for (const scenario of scenarios) {
  if (!existsSync(path.join(repoRoot, 'servers', scenario.folder, 'dist/cli.js'))) {
    console.log(`\n(servers/${scenario.folder} is not built; skipped)`);
    continue;
  }
  try {
    await tour(scenario.folder, scenario);
  } catch (error) {
    failed++;
    console.error(`\n${scenario.folder}: demo failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
console.log(`\nDemo finished in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
process.exit(failed ? 1 : 0);
