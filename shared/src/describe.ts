import type { AnyObject, PromptDefinition, ResourceDefinition, ResourceTemplateDefinition, ToolDefinition } from './definitions.js';
import type { z } from 'zod';
import { toJsonSchema, type JsonSchema } from './json-schema.js';
import type { ToolAnnotations } from './types.js';

export interface ToolDescriptor {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations?: ToolAnnotations;
}

export interface PromptDescriptor {
  name: string;
  title?: string;
  description: string;
  arguments: { name: string; description?: string; required: boolean }[];
}

export interface ResourceDescriptor {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface TemplateDescriptor {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface ServerDescription {
  tools: ToolDescriptor[];
  prompts: PromptDescriptor[];
  resources: ResourceDescriptor[];
  templates: TemplateDescriptor[];
}

/** The wire descriptors of everything a server registers, derived from the definitions. */
export function describeServer(config: {
  tools?: readonly ToolDefinition<AnyObject, AnyObject, never>[];
  prompts?: readonly PromptDefinition<AnyObject, never>[];
  resources?: readonly ResourceDefinition<never>[];
  templates?: readonly ResourceTemplateDefinition<never>[];
}): ServerDescription {
  return {
    tools: (config.tools ?? []).map((tool) =>
      compact({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: toJsonSchema(tool.input, 'input'),
        outputSchema: toJsonSchema(tool.output, 'output'),
        annotations: tool.annotations,
      }),
    ),
    prompts: (config.prompts ?? []).map((prompt) =>
      compact({
        name: prompt.name,
        title: prompt.title,
        description: prompt.description,
        arguments: Object.entries(prompt.args.shape as Record<string, z.ZodType>).map(([name, schema]) =>
          compact({ name, description: schema.description, required: !schema.safeParse(undefined).success }),
        ),
      }),
    ),
    resources: (config.resources ?? []).map(({ uri, name, title, description, mimeType }) =>
      compact({ uri, name, title, description, mimeType }),
    ),
    templates: (config.templates ?? []).map(({ uriTemplate, name, title, description, mimeType }) =>
      compact({ uriTemplate, name, title, description, mimeType }),
    ),
  };
}

/** Drops undefined fields, so descriptors on the wire carry only what is set. */
function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}
