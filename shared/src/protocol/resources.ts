import type { ServerContext, UriTemplate } from '@modelcontextprotocol/server';
import { invalidParams, resourceNotFound } from '../errors.js';
import { paginateStreams } from '../pagination.js';
import type { ResourceInfo } from '../types.js';
import { InputRound, callIdentity } from './input-required.js';
import { listResult, onList } from './lists.js';
import type { Scope } from './scope.js';
import { isViewUri, readView } from '../views.js';

/**
 * `resources/list` (fixed resources, then each template's listing, paged as one
 * stream), `resources/templates/list`, `resources/read` (a miss is -32602 with
 * `data.uri`, in both eras), and on 2025 sessions `resources/subscribe` /
 * `unsubscribe` through the server's subscription hub.
 */
export function registerResources<Ext>(scope: Scope<Ext>, rounds: WeakMap<ServerContext, InputRound>) {
  const { hub, config, id } = scope;
  scope.on('resources/list', async (request: { params?: { cursor?: string } }, sdkCtx) => {
    const ctx = scope.contextFor(sdkCtx);
    const { description, templates } = await scope.registry();
    const fixed: ResourceInfo[] = description.resources;
    const sources = [
      (after: string | undefined) => (after === undefined ? fixed : fixed.slice(fixed.findIndex((r) => r.uri === after) + 1)),
      ...templates
        .filter(({ definition }) => definition.list)
        .map(({ definition }) => (after: string | undefined) => definition.list!(after, ctx)),
    ];
    const page = await paginateStreams('resources/list', sources, (r) => r.uri, request.params?.cursor, scope.pageSize);
    return listResult('resources', page);
  });
  onList(scope, 'resources/templates/list', 'resourceTemplates', (r) => r.description.templates);
  scope.on('resources/read', async (request: { params: { uri: string } }, sdkCtx) => {
    const { uri } = request.params;
    // --- views (MCP Apps): a view's HTML, the same for every client; it asks nothing ---
    if (isViewUri(uri)) return readView((await scope.registry()).views, uri);
    const round = scope.era === 'modern' ? InputRound.open(sdkCtx, () => callIdentity('resources/read', uri, {})) : undefined;
    if (round) rounds.set(sdkCtx, round);
    try {
      const ctx = scope.contextFor(sdkCtx);
      const { resources, templates } = await scope.registry();
      const fixed = resources.find((resource) => resource.uri === uri);
      if (fixed) return scope.withinBudget(uri, { contents: await fixed.read(ctx) });
      for (const { definition, matcher } of templates) {
        const variables = matchTemplate(matcher, uri);
        if (variables) return scope.withinBudget(uri, { contents: await definition.read(uri, variables, ctx) });
      }
    } catch (error) {
      // resources/read is cacheable: even the round that asks says not to keep it.
      if (round?.needsInput) return { ...(await round.result(scope.seal)), ...UNCACHED };
      throw error;
    }
    throw resourceNotFound(uri, 'Call resources/list or resources/templates/list to see what this server serves.');
  });
  if (scope.era !== 'legacy') return;
  scope.on('resources/subscribe', async (request: { params: { uri: string } }, sdkCtx) => {
    const { uri } = request.params;
    if (!hub.isSubscribed(id, uri)) {
      const watch = config.watch;
      const ctx = scope.contextFor(sdkCtx);
      const allowed = await Promise.resolve(config.canWatch?.(uri, ctx) ?? true).catch(() => false);
      if (!allowed) return {};
      await hub.subscribe(
        id,
        uri,
        (changed) => scope.send('notifications/resources/updated', { uri: changed }),
        watch && ((watched, changed) => watch(watched, changed, ctx)),
      );
    }
    return {};
  });
  scope.on('resources/unsubscribe', async (request: { params: { uri: string } }) => {
    await hub.unsubscribe(id, request.params.uri);
    return {};
  });
}

const UNCACHED = { ttlMs: 0, cacheScope: 'private' } as const;

/** Template variables, percent-decoded; undefined when the URI does not match. */
function matchTemplate(matcher: UriTemplate, uri: string): Record<string, string> | undefined {
  let match: Record<string, string | string[]> | null;
  try {
    match = matcher.match(uri);
  } catch {
    return undefined;
  }
  if (!match) return undefined;
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(match)) {
    const raw = Array.isArray(value) ? value.join(',') : value;
    try {
      variables[name] = decodeURIComponent(raw);
    } catch {
      throw invalidParams(`Malformed percent-encoding in ${uri}`);
    }
  }
  return variables;
}
