import type { ServerContext } from '@modelcontextprotocol/server';
import { invalidParams } from '../errors.js';
import { describeZodError } from '../json-schema.js';
import { InputRound, callIdentity } from './input-required.js';
import { onList } from './lists.js';
import type { Scope } from './scope.js';

/** `prompts/list` and `prompts/get` (a prompt may need roots: a round on 2026-07-28). */
export function registerPrompts<Ext>(scope: Scope<Ext>, rounds: WeakMap<ServerContext, InputRound>) {
  onList(scope, 'prompts/list', 'prompts', (r) => r.description.prompts);
  scope.on('prompts/get', async (request: { params: { name: string; arguments?: Record<string, string> } }, sdkCtx) => {
    const prompt = (await scope.registry()).prompts.get(request.params.name);
    if (!prompt) throw invalidParams(`Unknown prompt: ${request.params.name}`);
    const parsed = prompt.args.safeParse(request.params.arguments ?? {});
    if (!parsed.success) throw invalidParams(`Invalid arguments for prompt ${prompt.name}: ${describeZodError(parsed.error)}`);
    const round = scope.era === 'modern' ? InputRound.open(sdkCtx, () => callIdentity('prompts/get', prompt.name, request.params.arguments)) : undefined;
    if (round) rounds.set(sdkCtx, round);
    try {
      return scope.withinBudget(`prompt ${prompt.name}`, await prompt.handler(parsed.data, scope.contextFor(sdkCtx)));
    } catch (error) {
      if (round?.needsInput) return round.result(scope.seal);
      throw error;
    }
  });
}
