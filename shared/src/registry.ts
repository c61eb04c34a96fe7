import { UriTemplate } from '@modelcontextprotocol/server';
import type { AnyObject, PromptDefinition, ResourceDefinition, ResourceTemplateDefinition, ToolDefinition } from './definitions.js';
import { describeServer, type ServerDescription, type ToolDescriptor } from './describe.js';
import { indexViews, toolLists, type ViewDefinition } from './views.js';

/**
 * Definitions as a list, or as a function that loads them. A loader lets a server keep
 * its tool modules (and their schemas) out of start-up: they are imported on the first
 * request that needs them, not before `initialize` is answered.
 */
export type Registered<T> = readonly T[] | (() => Promise<readonly T[]>);

export interface Definitions<Ext> {
  tools?: Registered<ToolDefinition<AnyObject, AnyObject, Ext>>;
  resources?: Registered<ResourceDefinition<Ext>>;
  templates?: Registered<ResourceTemplateDefinition<Ext>>;
  prompts?: Registered<PromptDefinition<AnyObject, Ext>>;
  /** MCP Apps views, served by `resources/read` and left out of `resources/list`. */
  views?: Registered<ViewDefinition>;
}

export interface Registry<Ext> {
  tools: Map<string, ToolDefinition<AnyObject, AnyObject, Ext>>;
  prompts: Map<string, PromptDefinition<AnyObject, Ext>>;
  resources: readonly ResourceDefinition<Ext>[];
  templates: readonly { definition: ResourceTemplateDefinition<Ext>; matcher: UriTemplate }[];
  /** Wire descriptors (JSON Schemas), derived from the definitions. */
  description: ServerDescription;
  // --- views (MCP Apps) ---
  views: Map<string, ViewDefinition>;
  /** tools/list for clients that render views: every tool, `_meta.ui` where set. */
  appTools: ToolDescriptor[];
}

const load = async <T>(registered: Registered<T> | undefined): Promise<readonly T[]> =>
  typeof registered === 'function' ? registered() : (registered ?? []);

/** Loads (once) and indexes the definitions; duplicate names are a programming error. */
export function createRegistry<Ext>(definitions: Definitions<Ext>): () => Promise<Registry<Ext>> {
  let loaded: Promise<Registry<Ext>> | undefined;
  return () =>
    (loaded ??= (async () => {
      const [tools, resources, templates, prompts, views] = await Promise.all([
        load(definitions.tools),
        load(definitions.resources),
        load(definitions.templates),
        load(definitions.prompts),
        load(definitions.views),
      ]);
      const description = describeServer({ tools, resources, templates, prompts } as never);
      const lists = toolLists(tools, description.tools);
      return {
        tools: indexByName('tool', tools),
        prompts: indexByName('prompt', prompts),
        resources,
        templates: templates.map((definition) => ({ definition, matcher: new UriTemplate(definition.uriTemplate) })),
        description: { ...description, tools: lists.plain },
        views: indexViews(views),
        appTools: lists.apps,
      };
    })());
}

/** What is registered, as far as can be told without loading lazy definitions. */
export function registeredKinds(definitions: Definitions<unknown>) {
  const present = (registered: Registered<unknown> | undefined) =>
    typeof registered === 'function' || Boolean(registered?.length);
  const completes = (registered: Registered<{ complete?: object }> | undefined) =>
    typeof registered === 'function' || Boolean(registered?.some((d) => d.complete && Object.keys(d.complete).length));
  return {
    tools: present(definitions.tools),
    prompts: present(definitions.prompts),
    resources: present(definitions.resources) || present(definitions.templates) || present(definitions.views),
    completions: completes(definitions.templates) || completes(definitions.prompts),
  };
}

function indexByName<T extends { name: string }>(kind: string, items: readonly T[]): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) {
    if (map.has(item.name)) throw new Error(`duplicate ${kind} name: ${item.name}`);
    map.set(item.name, item);
  }
  return map;
}
