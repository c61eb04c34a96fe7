import type { ServerContext } from '@modelcontextprotocol/server';
import type { BaseContext } from '../definitions.js';
import { ToolError, missingClientCapabilities } from '../errors.js';
import type { Question } from '../types.js';
import { checkQuestionKey, missingCapabilities, rootsOf, sampleAnswerOf, type InputRound } from './input-required.js';
import type { Scope } from './scope.js';

/**
 * `ctx.confirm(question)`. On a 2025 session it is an `elicitation/create` on the stream
 * of the request in flight (over HTTP a client need not open the standalone GET stream,
 * and a request sent there would wait for nobody). On a 2026-07-28 request it is an
 * `input_required` round: the handler stops here, the client answers, and the call runs
 * again from the top with the answer, so handlers ask before any side effect. A client
 * that declared no elicitation gets `whenUnavailable` (default: go ahead, as the older
 * servers did).
 */
export function confirmFor<Ext>(scope: Scope<Ext>, ctx: ServerContext | undefined, round: InputRound | undefined): BaseContext['confirm'] {
  return async (question, options) => {
    const whenUnavailable = options?.whenUnavailable ?? true;
    if (scope.era === 'modern') return round ? round.confirm(question, whenUnavailable, options?.subject) : whenUnavailable;
    const elicitation = scope.sdk.getClientCapabilities()?.elicitation as { form?: unknown } | undefined;
    if (!elicitation?.form || !ctx) return whenUnavailable;
    const answer = await ctx.mcpReq.send(
      {
        method: 'elicitation/create',
        params: {
          message: question,
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean', title: 'Go ahead', description: question } },
            required: ['confirm'],
          },
        },
      },
      { signal: ctx.mcpReq.signal },
    );
    return answer.action === 'accept' && (answer.content as { confirm?: unknown } | undefined)?.confirm === true;
  };
}

/**
 * `ctx.elicit(request)`: a form. On a 2025 session an `elicitation/create` on the call's
 * stream; on 2026-07-28 an `input_required` round under the caller's key. Undefined for a
 * client that declared no elicitation.
 */
export function elicitFor<Ext>(scope: Scope<Ext>, ctx: ServerContext | undefined, round: InputRound | undefined): BaseContext['elicit'] {
  return async ({ key, message, requestedSchema }) => {
    if (scope.era === 'modern') return round?.elicit(key, message, requestedSchema);
    if (!ctx || !scope.sdk.getClientCapabilities()?.elicitation) return undefined;
    const answer = await ctx.mcpReq.send({ method: 'elicitation/create', params: { message, requestedSchema } as never }, { signal: ctx.mcpReq.signal });
    return { action: answer.action, ...(answer.content ? { content: answer.content as Record<string, unknown> } : {}) };
  };
}

/**
 * `ctx.ask(questions)`: forms, completions and roots lists under the handler's keys. On
 * 2026-07-28 one `input_required` round with every question still open; on a 2025 session
 * one request after the other on the call's stream. Only what the client declared is asked.
 */
export function askFor<Ext>(scope: Scope<Ext>, ctx: ServerContext | undefined, round: InputRound | undefined): BaseContext['ask'] {
  return (async (questions: Record<string, Question>, options?: { required?: boolean }) => {
    for (const key of Object.keys(questions)) checkQuestionKey(key);
    if (options?.required) {
      const declared = scope.era === 'modern' ? round?.clientCapabilities : scope.sdk.getClientCapabilities();
      const missing = missingCapabilities(questions, declared as never);
      if (Object.keys(missing).length > 0) throw missingClientCapabilities(missing);
    }
    if (scope.era === 'modern') return round ? round.ask(questions) : {};
    const answers: Record<string, unknown> = {};
    const capabilities = scope.sdk.getClientCapabilities();
    if (!ctx) return answers;
    const sendOptions = { signal: ctx.mcpReq.signal };
    for (const [key, question] of Object.entries(questions)) {
      if ('elicit' in question) {
        if (!capabilities?.elicitation) continue;
        const answer = await ctx.mcpReq.send({ method: 'elicitation/create', params: question.elicit as never }, sendOptions);
        answers[key] = { action: answer.action, ...(answer.content ? { content: answer.content as Record<string, unknown> } : {}) };
      } else if ('sample' in question) {
        if (!capabilities?.sampling) continue;
        const answer = sampleAnswerOf(await ctx.mcpReq.send({ method: 'sampling/createMessage', params: question.sample as never }, sendOptions));
        if (!answer) throw new ToolError('The client answered the sampling request with something that is not one completion (role, content, model).');
        answers[key] = answer;
      } else {
        if (!capabilities?.roots) continue;
        const answer = await ctx.mcpReq.send({ method: 'roots/list' }, sendOptions);
        answers[key] = rootsOf(answer.roots);
      }
    }
    return answers;
  }) as BaseContext['ask'];
}

/** `ctx.sample(request)`: `ctx.ask` with one completion. */
export function sampleFor(ask: BaseContext['ask']): BaseContext['sample'] {
  return async ({ key, ...request }) => (await ask({ [key]: { sample: request } }))[key];
}
