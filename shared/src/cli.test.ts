import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { helpText, parseArgs, UsageError, type CliSpec } from './cli.js';
import { ensureTemplateBin } from './testing/template-bin.js';

const serverOptions = z.object({
  dirs: z.array(z.string().min(1)).default([]).describe('Directories to serve'),
  readOnly: z.boolean().default(false).describe('Refuse writes'),
  maxRows: z.number().int().positive().default(10_000).describe('Row cap'),
  allowHost: z.array(z.string()).default([]).describe('Hosts that may be fetched'),
  userAgent: z.string().optional().describe('User-Agent header'),
});

const spec: CliSpec<typeof serverOptions.shape> = {
  name: 'mcp-server-test',
  version: '9.8.7',
  description: 'A server for the CLI tests',
  options: serverOptions,
  positional: { key: 'dirs', name: 'DIR...' },
  epilog: 'Environment: MCP_AUTH_TOKEN sets --auth-token.',
};

const parse = (...argv: string[]) => {
  const parsed = parseArgs(spec, argv);
  if (typeof parsed === 'string') throw new Error(`expected options, got ${parsed}`);
  return parsed;
};

/** The UsageError message for argv; fails the test when parsing succeeds. */
function usageError(
  argv: string[],
  env: Record<string, string> = {},
  cliSpec: CliSpec<z.ZodRawShape> = spec as unknown as CliSpec<z.ZodRawShape>,
): string {
  try {
    parseArgs(cliSpec, argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    const message = (error as Error).message;
    expect(message).not.toMatch(/\n/);
    return message;
  }
  throw new Error(`parseArgs accepted ${argv.join(' ')}`);
}

describe('parseArgs', () => {
  it('applies the defaults of the common and the server options', () => {
    expect(parse()).toEqual({
      http: false,
      port: 3000,
      host: '127.0.0.1',
      logLevel: 'info',
      pageSize: 100,
      dirs: [],
      readOnly: false,
      maxRows: 10_000,
      allowHost: [],
    });
  });

  it('reads the common flags', () => {
    expect(parse('--http', '--port', '8080', '--host', '0.0.0.0', '--log-level', 'debug', '--page-size', '5')).toMatchObject({
      http: true,
      port: 8080,
      host: '0.0.0.0',
      logLevel: 'debug',
      pageSize: 5,
    });
  });

  it('turns camelCase keys into kebab-case flags (and only those)', () => {
    expect(parse('--read-only', '--max-rows', '7', '--user-agent', 'Bot/1')).toMatchObject({
      readOnly: true,
      maxRows: 7,
      userAgent: 'Bot/1',
    });
    expect(usageError(['--readOnly'])).toBe('unknown option --readOnly');
  });

  it('collects a repeatable list flag', () => {
    expect(parse('--allow-host', 'a.example', '--allow-host', 'b.example:8080').allowHost).toEqual(['a.example', 'b.example:8080']);
  });

  it('collects positionals, including after --', () => {
    expect(parse('/a', '--read-only', '/b').dirs).toEqual(['/a', '/b']);
    expect(parse('--', '--not-a-flag', '-').dirs).toEqual(['--not-a-flag', '-']);
  });

  it('accepts --flag=value, keeping any further = in the value', () => {
    expect(parse('--port=0', '--user-agent=a=b', '--allow-host=x')).toMatchObject({ port: 0, userAgent: 'a=b', allowHost: ['x'] });
  });

  it('refuses unknown flags, missing values, non-numbers and schema-refused values with one line', () => {
    expect(usageError(['--bogus'])).toBe('unknown option --bogus');
    expect(usageError(['--bogus=1'])).toBe('unknown option --bogus');
    expect(usageError(['--dirs', 'x'])).toBe('unknown option --dirs'); // positional key is not a flag
    expect(usageError(['--port'])).toBe('--port needs a value');
    expect(usageError(['--port', '--http'])).toBe('--port needs a value');
    expect(usageError(['--port', 'abc'])).toBe('--port must be a number, got "abc"');
    expect(usageError(['--port='])).toBe('--port must be a number, got ""');
    expect(usageError(['--port', '70000'])).toMatch(/^--port: /);
    expect(usageError(['--max-rows', '0'])).toMatch(/^--max-rows: /);
    expect(usageError(['--page-size', '1.5'])).toMatch(/^--page-size: /);
    expect(usageError(['--log-level', 'loud'])).toMatch(/^--log-level: /);
    expect(usageError(['--read-only=yes'])).toBe('--read-only takes no value');
    expect(usageError([''])).toMatch(/^DIR\.\.\.: /); // an empty positional is refused by the schema, named as in help
  });

  it('refuses positionals when the server takes none', () => {
    const noPositional = { ...spec, positional: undefined } as CliSpec<z.ZodRawShape>;
    expect(usageError(['stray'], {}, noPositional)).toBe('unexpected argument stray');
  });

  it('answers --help and --version wherever they appear', () => {
    expect(parseArgs(spec, ['--help'])).toBe('help');
    expect(parseArgs(spec, ['-h'])).toBe('help');
    expect(parseArgs(spec, ['--read-only', '--help', '--bogus'])).toBe('help');
    expect(parseArgs(spec, ['--version'])).toBe('version');
    expect(parseArgs(spec, ['-v'])).toBe('version');
  });

  it('takes the bearer token from MCP_AUTH_TOKEN, and the flag over the environment', () => {
    const envToken = 'e'.repeat(32);
    const flagToken = 'f'.repeat(32);
    expect(parseArgs(spec, ['--http'], { MCP_AUTH_TOKEN: envToken })).toMatchObject({ authToken: envToken });
    expect(parseArgs(spec, ['--http', '--auth-token', flagToken], { MCP_AUTH_TOKEN: envToken })).toMatchObject({
      authToken: flagToken,
    });
    expect(parse('--http')).not.toHaveProperty('authToken');
    expect(usageError(['--http', '--auth-token', 'short'])).toBe('--auth-token: must be at least 16 characters');
    expect(usageError(['--auth-token', flagToken])).toBe('--auth-token only applies with --http');
  });

  it('ignores MCP_AUTH_TOKEN without --http, even a short one, so it never stops a stdio server', () => {
    expect(parseArgs(spec, [], { MCP_AUTH_TOKEN: 'short' })).not.toHaveProperty('authToken');
    expect(parseArgs(spec, [], { MCP_AUTH_TOKEN: 'e'.repeat(32) })).not.toHaveProperty('authToken');
    expect(usageError(['--http'], { MCP_AUTH_TOKEN: 'short' })).toBe('--auth-token: must be at least 16 characters');
  });
});

describe('helpText', () => {
  const help = helpText(spec);

  it('lists every flag in kebab-case with its kind, description and default', () => {
    expect(help).toMatch(/^mcp-server-test 9\.8\.7: A server for the CLI tests\n/);
    expect(help).toContain('Usage: mcp-server-test [options] [DIR...]');
    expect(help).toMatch(/--read-only\s+Refuse writes\n/);
    expect(help).toMatch(/--max-rows N\s+Row cap \(default 10000\)/);
    expect(help).toMatch(/--allow-host VALUE \(repeatable\)\s+Hosts that may be fetched/);
    expect(help).toMatch(/--port N\s+HTTP port \(0 picks a free one\) \(default 3000\)/);
    expect(help).toMatch(/--auth-token VALUE\s+Require this bearer token on HTTP, at least 16 characters/);
    for (const flag of ['--http', '--host', '--log-level', '--page-size', '--user-agent', '--help', '--version']) {
      expect(help).toContain(`  ${flag}`);
    }
    expect(help).not.toContain('--dirs');
    expect(help).toContain('Environment: MCP_AUTH_TOKEN sets --auth-token.');
  });
});

describe('a real server process', () => {
  let bin: string;
  let dir: string;
  beforeAll(async () => {
    bin = await ensureTemplateBin();
    dir = await mkdtemp(path.join(tmpdir(), 'cli-test-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  }

  it('exits 2 with a single stderr line on an unknown flag', async () => {
    const { code, stdout, stderr } = await run(['--bogus', dir]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('mcp-server-template: unknown option --bogus (see --help)\n');
  });

  it("exits 2 with a single stderr line when the server's own schema refuses the arguments", async () => {
    const { code, stderr } = await run([]);
    expect(code).toBe(2);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^mcp-server-template: NOTES_DIR: /);
  });

  it('prints the version and exits 0', async () => {
    const { code, stdout, stderr } = await run(['--version']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(stderr).toBe('');
  });

  it('prints help to stdout and exits 0', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: mcp-server-template [options] [NOTES_DIR]');
    expect(stdout).toContain('--read-only');
  });
});
