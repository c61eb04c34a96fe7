// The rules of the MCP registry's server.json (schema 2025-12-11, as published at
// https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json, plus the
// official registry's extra requirements for npm packages), written as zod so the test
// needs no network, and the checks that tie a server.json to its package.json and bin.
import { z } from 'zod';
import { REGISTRY_OWNER, REPOSITORY_URL, type CliShape, type PackageJson } from './packaging.js';

export const SERVER_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** Version ranges and `latest` are refused by the registry: a version names one release. */
const exactVersion = z
  .string()
  .min(1)
  .max(255)
  .refine((v) => v !== 'latest' && !/^[\^~<>=]|[x*](\.|$)|\s-\s|\|\|/.test(v), 'must be one version, not a range or "latest"');

const input = {
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  format: z.enum(['string', 'number', 'boolean', 'filepath']).optional(),
  value: z.string().optional(),
  isSecret: z.boolean().optional(),
  default: z.string().optional(),
  placeholder: z.string().optional(),
  choices: z.array(z.string()).optional(),
};

const positional = z
  .object({ ...input, type: z.literal('positional'), valueHint: z.string().optional(), isRepeated: z.boolean().optional() })
  .refine((a) => a.valueHint !== undefined || a.value !== undefined, 'a positional argument needs valueHint or value');
const named = z.object({ ...input, type: z.literal('named'), name: z.string().min(1), valueHint: z.string().optional(), isRepeated: z.boolean().optional() });
const keyValue = z.object({ ...input, name: z.string().min(1) });

export const serverJsonSchema = z.object({
  $schema: z.literal(SERVER_SCHEMA_URL),
  name: z
    .string()
    .min(3)
    .max(200)
    .regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/, 'reverse-DNS namespace, one slash, then the server name'),
  title: z.string().min(1).max(100).optional(),
  description: z.string().min(1).max(100),
  version: exactVersion,
  repository: z.object({ url: z.string().url(), source: z.string(), id: z.string().optional(), subfolder: z.string().optional() }).optional(),
  websiteUrl: z.string().url().optional(),
  packages: z
    .array(
      z.strictObject({
        registryType: z.string(),
        // The official registry takes npm packages from the npm registry only.
        registryBaseUrl: z.literal('https://registry.npmjs.org').optional(),
        identifier: z.string(),
        version: exactVersion,
        fileSha256: z.string().regex(/^[a-f0-9]{64}$/).optional(),
        runtimeHint: z.string().optional(),
        transport: z.object({ type: z.literal('stdio') }),
        runtimeArguments: z.array(z.union([positional, named])).optional(),
        packageArguments: z.array(z.union([positional, named])).optional(),
        environmentVariables: z.array(keyValue).optional(),
      }),
    )
    .min(1),
  _meta: z.record(z.string(), z.unknown()).optional(),
});

export type ServerJson = z.output<typeof serverJsonSchema>;

/** The flags every server has; server.json describes a stdio launch, so it need not list them. */
export const COMMON_FLAGS = ['--http', '--port', '--host', '--auth-token', '--log-level', '--page-size', '--help', '--version'];

/**
 * Problems of one server.json: the schema's rules, agreement with package.json (name,
 * version, mcpName), and packageArguments that are exactly the bin's own flags.
 */
export function checkServerJson(json: unknown, pkg: PackageJson, folder: string, shape: CliShape): string[] {
  const parsed = serverJsonSchema.safeParse(json);
  if (!parsed.success) return parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  const doc = parsed.data;
  const problems: string[] = [];
  const short = pkg.name.replace(/^@mcp-reference\/server-/, '');
  if (doc.name !== `io.github.${REGISTRY_OWNER}/${short}`) problems.push(`name ${doc.name}, expected io.github.${REGISTRY_OWNER}/${short}`);
  if (pkg.mcpName !== doc.name) problems.push(`package.json mcpName ${pkg.mcpName} differs from server.json name ${doc.name}`);
  if (doc.version !== pkg.version) problems.push(`version ${doc.version}, package.json has ${pkg.version}`);
  if (doc.repository && (doc.repository.url !== REPOSITORY_URL || doc.repository.subfolder !== `servers/${folder}`)) {
    problems.push(`repository should be ${REPOSITORY_URL} with subfolder servers/${folder}`);
  }
  const npm = doc.packages.filter((p) => p.registryType === 'npm');
  if (npm.length !== 1) return [...problems, 'needs exactly one npm package'];
  const [p] = npm;
  if (p.identifier !== pkg.name) problems.push(`identifier ${p.identifier}, package.json name is ${pkg.name}`);
  if (p.version !== pkg.version) problems.push(`package version ${p.version}, package.json has ${pkg.version}`);

  const args = p.packageArguments ?? [];
  const namedArgs = args.filter((a): a is z.output<typeof named> => a.type === 'named');
  for (const a of namedArgs) {
    const flag = shape.flags.get(a.name);
    if (!flag) {
      problems.push(`packageArguments: ${a.name} is not a flag of the bin`);
      continue;
    }
    const givesValue = a.valueHint !== undefined || a.value !== undefined || a.format !== undefined;
    if (givesValue !== flag.takesValue) problems.push(`packageArguments: ${a.name} ${flag.takesValue ? 'takes a value (valueHint)' : 'is a switch (no valueHint/format)'}`);
    if (Boolean(a.isRepeated) !== flag.repeatable) problems.push(`packageArguments: ${a.name} isRepeated should be ${flag.repeatable}`);
  }
  const own = [...shape.flags.keys()].filter((f) => !COMMON_FLAGS.includes(f));
  for (const flag of own) if (!namedArgs.some((a) => a.name === flag)) problems.push(`packageArguments lacks ${flag}`);
  const positionals = args.filter((a) => a.type === 'positional');
  if (shape.positional && positionals.length !== 1) problems.push(`packageArguments needs one positional for ${shape.positional}`);
  if (!shape.positional && positionals.length) problems.push('packageArguments has a positional, but the bin takes none');
  if (positionals[0] && Boolean(positionals[0].isRepeated) !== Boolean(shape.positional?.endsWith('...'))) {
    problems.push(`positional isRepeated should be ${Boolean(shape.positional?.endsWith('...'))} (${shape.positional})`);
  }
  const env = (p.environmentVariables ?? []).map((e) => e.name);
  if (shape.flags.has('--auth-token') && !env.includes('MCP_AUTH_TOKEN')) problems.push('environmentVariables lacks MCP_AUTH_TOKEN');
  return problems;
}
