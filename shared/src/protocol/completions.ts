import type { Completer } from '../definitions.js';
import { capCompletions } from '../completions.js';
import { invalidParams } from '../errors.js';
import type { Scope } from './scope.js';

type CompleteParams = {
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
};

/** `completion/complete` for prompt arguments and template variables, capped at 100. */
export function registerCompletions<Ext>(scope: Scope<Ext>) {
  scope.on('completion/complete', async (request: { params: CompleteParams }, ctx) => {
    const { ref, argument, context } = request.params;
    let completer: Completer<Ext> | undefined;
    if (ref.type === 'ref/prompt') {
      const prompt = (await scope.registry()).prompts.get(ref.name);
      if (!prompt) throw invalidParams(`Unknown prompt: ${ref.name}`);
      completer = (prompt.complete as Record<string, Completer<Ext>> | undefined)?.[argument.name];
    } else if (ref.type === 'ref/resource') {
      const template = (await scope.registry()).templates.find((t) => t.definition.uriTemplate === ref.uri)?.definition;
      if (!template) throw invalidParams(`Unknown resource template: ${ref.uri}`);
      completer = template.complete?.[argument.name];
    }
    if (!completer) return { completion: { values: [], total: 0, hasMore: false } };
    const values = await completer(argument.value, scope.contextFor(ctx), { arguments: context?.arguments ?? {} });
    return { completion: capCompletions(values) };
  });
}
