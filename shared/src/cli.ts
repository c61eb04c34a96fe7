import { z } from 'zod';
import { LOG_LEVELS } from './types.js';
import { createStderrLogger, type Logger } from './logging.js';
import type { McpServer } from './server.js';
import { serveStdio } from './transports/stdio.js';
import { onShutdownSignal } from './transports/shutdown.js';
import { DEFAULT_PAGE_SIZE } from './pagination.js';

/** The flags every server takes (ARCHITECTURE.md section 2, "CLI conventions"). */
export const commonOptions = z.object({
  http: z.boolean().default(false).describe('Serve Streamable HTTP at /mcp instead of stdio'),
  port: z.number().int().min(0).max(65535).default(3000).describe('HTTP port (0 picks a free one)'),
  host: z.string().min(1).default('127.0.0.1').describe('HTTP interface to bind'),
  authToken: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('Require this bearer token on HTTP, at least 16 characters (or set MCP_AUTH_TOKEN; ignored without --http)'),
  logLevel: z.enum(LOG_LEVELS as [string, ...string[]]).default('info').describe('stderr and default session log level'),
  pageSize: z.number().int().min(1).max(10_000).default(DEFAULT_PAGE_SIZE).describe('Items per page of every list'),
});

export type CommonOptions = z.output<typeof commonOptions>;

export class UsageError extends Error {
  override name = 'UsageError';
}

type FlagKind = 'boolean' | 'number' | 'string' | 'list';

/** What kind of value a zod field takes on the command line. */
function flagKind(schema: z.ZodType): FlagKind {
  let current = schema as z.ZodType & { _zod: { def: { type: string; innerType?: z.ZodType } } };
  while (current._zod.def.type === 'optional' || current._zod.def.type === 'default') {
    current = current._zod.def.innerType as typeof current;
  }
  switch (current._zod.def.type) {
    case 'boolean':
      return 'boolean';
    case 'number':
      return 'number';
    case 'array':
      return 'list';
    default:
      return 'string';
  }
}

const toFlag = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

export interface CliSpec<Shape extends z.ZodRawShape> {
  /** The bin name, e.g. `mcp-server-filesystem`. */
  name: string;
  version: string;
  description: string;
  /** The server's own options; camelCase keys become kebab-case flags. */
  options: z.ZodObject<Shape>;
  /** The key (a string array) that collects positional arguments, and its name in help. */
  positional?: { key: keyof Shape & string; name: string };
  /** Extra help text (examples, environment). */
  epilog?: string;
}

function mergedSchema<Shape extends z.ZodRawShape>(spec: CliSpec<Shape>): z.ZodObject<Record<string, z.ZodType>> {
  return commonOptions.extend(spec.options.shape) as unknown as z.ZodObject<Record<string, z.ZodType>>;
}

export type ParsedOptions<Shape extends z.ZodRawShape> = z.output<z.ZodObject<Shape>> & CommonOptions;

/**
 * Parses argv against the common options and the server's zod schema. Throws UsageError
 * (one line) for unknown flags, missing values and values the schema refuses.
 */
export function parseArgs<Shape extends z.ZodRawShape>(
  spec: CliSpec<Shape>,
  argv: readonly string[],
  env: Record<string, string | undefined> = {},
): ParsedOptions<Shape> | 'help' | 'version' {
  const schema = mergedSchema(spec);
  const shape = schema.shape;
  const flags = new Map(Object.keys(shape).map((key) => [toFlag(key), key]));
  const raw: Record<string, unknown> = {};
  const positionals: string[] = [];
  let onlyPositionals = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (onlyPositionals || !arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    if (arg === '--') {
      onlyPositionals = true;
      continue;
    }
    if (arg === '--help' || arg === '-h') return 'help';
    if (arg === '--version' || arg === '-v') return 'version';
    const eq = arg.indexOf('=');
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const key = flags.get(flag);
    if (!key || (spec.positional && key === spec.positional.key)) {
      throw new UsageError(`unknown option ${flag}`);
    }
    const kind = flagKind(shape[key]);
    if (kind === 'boolean') {
      if (eq !== -1) throw new UsageError(`${flag} takes no value`);
      raw[key] = true;
      continue;
    }
    const value: string | undefined = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || (eq === -1 && value.startsWith('--'))) throw new UsageError(`${flag} needs a value`);
    if (kind === 'number') {
      const number = Number(value);
      if (value.trim() === '' || !Number.isFinite(number)) throw new UsageError(`${flag} must be a number, got "${value}"`);
      raw[key] = number;
    } else if (kind === 'list') {
      ((raw[key] ??= []) as string[]).push(value);
    } else {
      raw[key] = value;
    }
  }
  if (positionals.length) {
    if (!spec.positional) throw new UsageError(`unexpected argument ${positionals[0]}`);
    raw[spec.positional.key] = positionals;
  }
  const tokenFromFlag = raw.authToken !== undefined;
  // The environment token only concerns HTTP: a stdio server ignores it, so a token meant
  // for another server (or too short) in the environment never stops a stdio server.
  if (!tokenFromFlag && env.MCP_AUTH_TOKEN && raw.http === true) raw.authToken = env.MCP_AUTH_TOKEN;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = String(issue.path[0] ?? '');
    const where = spec.positional?.key === key ? spec.positional.name : key ? toFlag(key) : 'options';
    throw new UsageError(`${where}: ${issue.message}`);
  }
  if (tokenFromFlag && !parsed.data.http) {
    throw new UsageError('--auth-token only applies with --http');
  }
  return parsed.data as ParsedOptions<Shape>;
}

export function helpText<Shape extends z.ZodRawShape>(spec: CliSpec<Shape>): string {
  const schema = mergedSchema(spec);
  const rows: [string, string][] = [];
  for (const [key, field] of Object.entries(schema.shape)) {
    if (spec.positional?.key === key) continue;
    const kind = flagKind(field);
    const value = kind === 'boolean' ? '' : kind === 'number' ? ' N' : kind === 'list' ? ' VALUE (repeatable)' : ' VALUE';
    const fallback = (field as z.ZodType & { _zod: { def: { defaultValue?: unknown } } })._zod.def.defaultValue;
    const suffix = fallback !== undefined && kind !== 'boolean' ? ` (default ${JSON.stringify(fallback)})` : '';
    rows.push([`${toFlag(key)}${value}`, `${field.description ?? ''}${suffix}`]);
  }
  rows.push(['--help', 'Show this help'], ['--version', 'Print the version']);
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2;
  const usage = `${spec.name} [options]${spec.positional ? ` [${spec.positional.name}]` : ''}`;
  return [
    `${spec.name} ${spec.version}: ${spec.description}`,
    '',
    `Usage: ${usage}`,
    '',
    'Options:',
    ...rows.map(([flag, text]) => `  ${flag.padEnd(width)}${text}`),
    ...(spec.epilog ? ['', spec.epilog] : []),
    '',
  ].join('\n');
}

/**
 * The whole life of a server process: parse flags, build the server from the factory,
 * serve stdio (default) or Streamable HTTP, shut down cleanly. Bad flags exit 2 with one
 * line on stderr. The HTTP stack is imported only with --http.
 */
export async function runCli<Shape extends z.ZodRawShape>(
  spec: CliSpec<Shape>,
  create: (options: ParsedOptions<Shape>, logger: Logger) => McpServer | Promise<McpServer>,
): Promise<void> {
  let options: ReturnType<typeof parseArgs<Shape>>;
  try {
    options = parseArgs(spec, process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${spec.name}: ${error.message} (see --help)\n`);
    process.exit(2);
  }
  if (options === 'help') {
    process.stdout.write(helpText(spec));
    return;
  }
  if (options === 'version') {
    process.stdout.write(`${spec.version}\n`);
    return;
  }
  const logger = createStderrLogger(spec.name, options.logLevel as never);
  let server: McpServer;
  try {
    server = await create(options, logger);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${spec.name}: ${error.message} (see --help)\n`);
    process.exit(2);
  }
  if (!options.http) {
    await serveStdio(server, logger);
    return;
  }
  // Several instances behind a load balancer share this key, so that a multi-round-trip
  // call (a confirmation, roots) can continue on any of them. Random per process otherwise.
  const requestStateKey = process.env.MCP_REQUEST_STATE_KEY || undefined;
  if (requestStateKey !== undefined && Buffer.byteLength(requestStateKey) < 32) {
    process.stderr.write(`${spec.name}: MCP_REQUEST_STATE_KEY must be at least 32 bytes (e.g. \`openssl rand -hex 32\`)\n`);
    process.exit(2);
  }
  const { serveHttp } = await import('./transports/http.js');
  const listening = serveHttp(server, {
    host: options.host,
    port: options.port,
    authToken: options.authToken,
    requestStateKey,
    logger,
  }).catch((error: NodeJS.ErrnoException) => {
    process.stderr.write(`${spec.name}: cannot listen on ${options.host}:${options.port}: ${error.message}\n`);
    process.exit(1);
  });
  // Installed before the server announces its address, so a signal sent as soon as the
  // address appears already finds the handler.
  onShutdownSignal(async (signal) => {
    logger.log('info', `stopping on ${signal}`);
    await (await listening).close();
    process.exit(0);
  });
  await listening;
}
