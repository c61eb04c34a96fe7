import type { ServerContext } from '@modelcontextprotocol/server';
import type { ToolContext } from '../definitions.js';
import { ErrorCodes, ProtocolError, errorMessage, invalidParams } from '../errors.js';
import { describeZodError } from '../json-schema.js';
import { errorResult, renderJson, structuredResult } from '../results.js';
import { fitResult } from '../result-budget.js';
import type { ToolResult } from '../types.js';
import { InputNeeded, InputRound, callIdentity } from './input-required.js';
import { onList } from './lists.js';
import type { Scope } from './scope.js';
import { withViewHandle } from '../views.js';
import { clientRendersViews, hasViewTools } from './views.js';
import { CACHE_HINTS } from './discovery.js';

type CallParams = { name: string; arguments?: Record<string, unknown> };

/**
 * `tools/list` and `tools/call`. Arguments are checked against the tool's zod schema (a
 * mismatch is an isError result the model can fix), failures become isError results with
 * a message, and every result is held to the result budget.
 */
export function registerTools<Ext>(scope: Scope<Ext>, rounds: WeakMap<ServerContext, InputRound>) {
  // --- views (MCP Apps): clients that render views also see app-only tools and `_meta.ui` ---
  // Their list is private: a shared cache must not hand it to a client without views (whose
  // list, hints included, stays exactly that of a server without views).
  onList(
    scope,
    'tools/list',
    'tools',
    (r, sdkCtx) => (clientRendersViews(scope as Scope<unknown>, sdkCtx) ? r.appTools : r.description.tools),
    (r, sdkCtx) =>
      hasViewTools(r) && clientRendersViews(scope as Scope<unknown>, sdkCtx) ? { ...CACHE_HINTS['tools/list'], cacheScope: 'private' } : undefined,
  );
  scope.on('tools/call', async (request: { params: CallParams }, sdkCtx): Promise<unknown> => {
    const { name } = request.params;
    const tool = (await scope.registry()).tools.get(name);
    if (!tool) throw invalidParams(`Unknown tool: ${name}. Call tools/list to see the tools.`);
    const round = scope.era === 'modern' ? InputRound.open(sdkCtx, () => callIdentity('tools/call', name, request.params.arguments)) : undefined;
    if (round) rounds.set(sdkCtx, round);
    const parsed = tool.input.safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      return errorResult(`Invalid arguments for ${tool.name}: ${describeZodError(parsed.error)}. Fix the arguments and call again.`);
    }
    const render = tool.render ?? renderJson;
    const own: Pick<ToolContext<unknown>, 'result' | 'error'> = {
      result: (structured, content) => structuredResult(structured as Record<string, unknown>, render(structured as never), content),
      error: errorResult,
    };
    const ctx: ToolContext<unknown> & Ext = scope.contextFor(sdkCtx, own);
    const started = performance.now();
    let result: ToolResult;
    try {
      result = await tool.handler(parsed.data, ctx as never);
    } catch (error) {
      // A question for the client (roots, a confirmation) ends this round: the client
      // answers and calls again. Checked first, in case the tool caught and rethrew it.
      if (round?.needsInput) return round.result(scope.seal);
      if (error instanceof InputNeeded) throw new ProtocolError(ErrorCodes.InternalError, 'input was asked outside a round');
      if (ctx.signal.aborted) return errorResult(`${tool.name} was cancelled.`);
      // A bad cursor or argument found by the handler is the caller's to fix, like any bad argument.
      if (error instanceof ProtocolError && error.code === ErrorCodes.InvalidParams) return errorResult(error.message);
      if (error instanceof ProtocolError) throw error;
      const described = scope.describeFailure(error);
      if (described !== undefined) return errorResult(described);
      scope.logger.log('error', `${tool.name} failed`, errorMessage(error));
      return errorResult(`${tool.name} failed: ${errorMessage(error)}`);
    }
    // A tool that turned a question into an error result of its own still asks it.
    if (round?.needsInput) return round.result(scope.seal);
    ctx.log('debug', `${tool.name} ${result.isError ? 'failed' : 'done'} in ${Math.round(performance.now() - started)} ms`);
    // Every result is held to the budget, so no client is sent more than it accepts.
    const fitted = fitResult(result, scope.maxResultBytes, tool.name, tool.whenTooLarge);
    // --- views (MCP Apps): the view gets a sealed handle of this call, other clients nothing new ---
    if (!tool.view || !clientRendersViews(scope as Scope<unknown>, sdkCtx)) return fitted;
    return withViewHandle(fitted, () => scope.viewHandles().seal({ tool: tool.name, args: parsed.data }));
  });
}
