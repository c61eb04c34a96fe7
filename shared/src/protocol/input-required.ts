import {
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type ClientCapabilities,
  type InputRequest,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { ToolError, invalidParams } from '../errors.js';
import type { ElicitAnswer, Question, Root, SampleAnswer } from '../types.js';
import { nodeCrypto } from '../lazy-builtins.js';

/**
 * What a modern (2026-07-28) request carries from one round to the next. A handler runs
 * again from the top on every round, so answers already given travel with the request,
 * sealed (HMAC) and bound to the call they were given for: the method, the tool, prompt or
 * resource name, and a hash of the arguments. Another call cannot reuse them.
 */
export interface SealedState {
  /** method, name and argument hash of the call the answers belong to */
  call: string;
  /** the keys asked in the last round: only answers to these are read */
  asked: string[];
  roots?: Root[];
  answers?: Record<string, boolean>;
  forms?: Record<string, ElicitAnswer>;
  /** the kind of each asked key of `ctx.ask` that is not a form */
  kinds?: Record<string, 'sample' | 'roots'>;
  samples?: Record<string, SampleAnswer>;
  rootLists?: Record<string, Root[]>;
}

export interface RequestStateSeal {
  mint(state: SealedState): Promise<string>;
  verify(state: string): Promise<SealedState>;
}

/** Answers live at most this long between rounds (a confirmation waits for a person). */
const STATE_TTL_SECONDS = 600;

/**
 * The request-state codec. The key is random per process unless one is given: several
 * HTTP instances behind a load balancer share `MCP_REQUEST_STATE_KEY`, so that a round
 * answered by one instance can be retried on another.
 */
export function createRequestStateSeal(key?: string): RequestStateSeal {
  if (key !== undefined && Buffer.byteLength(key) < 32) {
    throw new Error('MCP_REQUEST_STATE_KEY must be at least 32 bytes (e.g. `openssl rand -hex 32`).');
  }
  // Made on first use: the codec's Web Crypto (and a random key) would load node:crypto at
  // start-up, for a 2025 client that never sees a request state.
  let codec: ReturnType<typeof createRequestStateCodec<SealedState>> | undefined;
  const codecOf = () => (codec ??= createRequestStateCodec<SealedState>({ key: key ?? nodeCrypto().randomBytes(32), ttlSeconds: STATE_TTL_SECONDS }));
  return {
    mint: (state) => codecOf().mint(state),
    verify: (state) => codecOf().verify(state, undefined as never),
  };
}

/** Thrown by `roots()` / `confirm()` on a modern request that must first ask the client. */
export class InputNeeded extends Error {
  override name = 'InputNeeded';
}

/** A stable identity of one call: method, name, and a hash of its arguments. */
export function callIdentity(method: string, name: string, args: unknown): string {
  const hash = nodeCrypto().createHash('sha256').update(stableJson(args ?? {})).digest('base64url');
  return `${method} ${name} ${hash}`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const ROOTS_KEY = 'roots';

const CONFIRM_PREFIX = 'confirm-';

/**
 * The elicitation key of a question: the same question (about the same subject, when it
 * names one) gets the same key on every round.
 */
function confirmKey(question: string, subject: string | undefined): string {
  const hash = nodeCrypto().createHash('sha256').update(question);
  if (subject !== undefined) hash.update('\0').update(subject);
  return `${CONFIRM_PREFIX}${hash.digest('base64url').slice(0, 16)}`;
}

/** The roots of a `roots/list` answer, keeping only well-formed entries. */
export function rootsOf(roots: readonly unknown[]): Root[] {
  return roots
    .filter((root): root is Root => typeof (root as Root | null)?.uri === 'string')
    .map(({ uri, name }) => (typeof name === 'string' ? { uri, name } : { uri }));
}

/** A `sampling/createMessage` answer, or undefined when it is not one (a malformed or multi-block answer). */
export function sampleAnswerOf(result: unknown): SampleAnswer | undefined {
  const r = result as { role?: unknown; content?: unknown; model?: unknown; stopReason?: unknown } | null;
  if (!r || (r.role !== 'user' && r.role !== 'assistant') || typeof r.model !== 'string') return undefined;
  const content = r.content as { type?: unknown; text?: unknown; data?: unknown; mimeType?: unknown } | null;
  if (!content || typeof content !== 'object' || Array.isArray(content)) return undefined;
  let clean: SampleAnswer['content'];
  if (content.type === 'text' && typeof content.text === 'string') clean = { type: 'text', text: content.text };
  else if ((content.type === 'image' || content.type === 'audio') && typeof content.data === 'string' && typeof content.mimeType === 'string') {
    clean = { type: content.type, data: content.data, mimeType: content.mimeType };
  } else return undefined;
  return { role: r.role, content: clean, model: r.model, ...(typeof r.stopReason === 'string' ? { stopReason: r.stopReason } : {}) };
}

/** The capabilities the questions need that the client did not declare, as a ClientCapabilities object. */
export function missingCapabilities(questions: Record<string, Question>, capabilities: ClientCapabilities | undefined): Record<string, object> {
  const missing: Record<string, object> = {};
  for (const question of Object.values(questions)) {
    if ('elicit' in question && !formsDeclared(capabilities)) missing.elicitation = { form: {} };
    else if ('sample' in question && !capabilities?.sampling) missing.sampling = {};
    else if ('roots' in question && !capabilities?.roots) missing.roots = {};
  }
  return missing;
}

/** Refuses the keys the base asks under itself. */
export function checkQuestionKey(key: string): void {
  if (key === ROOTS_KEY || key.startsWith(CONFIRM_PREFIX)) throw new Error(`question key ${key} is reserved by the base`);
}

/** Whether the client declared form elicitation (an empty `elicitation: {}` means forms). */
function formsDeclared(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation as { form?: unknown; url?: unknown } | undefined;
  return Boolean(elicitation) && !(elicitation!.url !== undefined && elicitation!.form === undefined);
}

/**
 * One round of a modern `tools/call`, `prompts/get` or `resources/read`: the answers the
 * client gave so far, and the questions the handler still has. A request with no round
 * (lists, completions) cannot ask: its roots are the command-line ceiling.
 */
export class InputRound {
  private roots: Root[] | undefined;
  private rootsKnown = false;
  private rootsUnanswered = false;
  private readonly answers: Record<string, boolean>;
  private readonly forms: Record<string, ElicitAnswer>;
  private readonly samples: Record<string, SampleAnswer>;
  private readonly rootLists: Record<string, Root[]>;
  private readonly pending: Record<string, InputRequest> = {};
  private readonly pendingKinds: Record<string, 'sample' | 'roots'> = {};

  private constructor(
    private readonly call: () => string,
    private readonly capabilities: ClientCapabilities | undefined,
    state: SealedState | undefined,
    responses: Record<string, unknown> | undefined,
  ) {
    this.answers = { ...state?.answers };
    this.forms = { ...state?.forms };
    this.samples = { ...state?.samples };
    this.rootLists = { ...state?.rootLists };
    if (state?.roots) {
      this.roots = state.roots;
      this.rootsKnown = true;
    }
    for (const key of state?.asked ?? []) {
      const view = inputResponse(responses, key);
      const kind = state?.kinds?.[key];
      // An unusable answer to a sampling or roots question leaves it open: it is asked again.
      if (kind === 'sample') {
        const answer = view.kind === 'sampling' ? sampleAnswerOf(view.result) : undefined;
        if (answer) this.samples[key] = answer;
      } else if (kind === 'roots') {
        if (view.kind === 'roots') this.rootLists[key] = rootsOf(view.roots);
      } else if (key === ROOTS_KEY) {
        if (view.kind !== 'roots') {
          this.rootsUnanswered = true;
          continue;
        }
        this.roots = rootsOf(view.roots);
        this.rootsKnown = true;
      } else if (key.startsWith(CONFIRM_PREFIX)) {
        this.answers[key] = view.kind === 'elicit' && view.action === 'accept' && view.content?.confirm === true;
      } else {
        this.forms[key] =
          view.kind === 'elicit' ? { action: view.action, ...(view.content ? { content: view.content } : {}) } : { action: 'cancel' };
      }
    }
  }

  /**
   * Reads the round from the request. State that belongs to another call, or answers
   * that arrive without state, are refused (-32602): answers are only taken for the
   * questions this server asked for this very call.
   */
  static open(ctx: ServerContext, call: () => string): InputRound {
    const state = ctx.mcpReq.requestState<SealedState>();
    const responses = ctx.mcpReq.inputResponses;
    if (state !== undefined) {
      if (typeof state !== 'object' || state === null || state.call !== call()) {
        throw invalidParams('requestState was issued for another call (a different tool, prompt, resource or arguments); start the call again without it.');
      }
    } else if (responses && Object.keys(responses).length > 0) {
      throw invalidParams('inputResponses came without the requestState of the round that asked for them; start the call again without inputResponses.');
    }
    const capabilities = ctx.mcpReq.envelope?.['io.modelcontextprotocol/clientCapabilities' as never] as ClientCapabilities | undefined;
    return new InputRound(call, capabilities, state, responses);
  }

  /** What the client declared on this request. */
  get clientCapabilities(): ClientCapabilities | undefined {
    return this.capabilities;
  }

  /** The client's roots; undefined when it declared none. Throws InputNeeded until it answered. */
  listRoots(): Root[] | undefined {
    if (this.rootsKnown) return this.roots;
    if (this.rootsUnanswered) {
      throw new ToolError(
        'The client did not answer the roots request, so this call has no access: a client that declares roots gets at ' +
          'most its roots, never the whole configured ceiling. Call again and answer the roots request.',
      );
    }
    if (!this.capabilities?.roots) return undefined;
    this.pending[ROOTS_KEY] = inputRequired.listRoots();
    throw new InputNeeded('roots');
  }

  /** The answer to a yes/no question (about `subject`), or `whenUnavailable` for a client without elicitation. */
  confirm(question: string, whenUnavailable: boolean, subject?: string): boolean {
    const key = confirmKey(question, subject);
    if (key in this.answers) return this.answers[key];
    if (!formsDeclared(this.capabilities)) return whenUnavailable;
    this.pending[key] = inputRequired.elicit({
      message: question,
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title: 'Go ahead', description: question } },
        required: ['confirm'],
      },
    });
    throw new InputNeeded('confirm');
  }

  /** The answer to a form, or undefined for a client without elicitation. Throws InputNeeded until answered. */
  elicit(key: string, message: string, requestedSchema: Record<string, unknown>): ElicitAnswer | undefined {
    checkQuestionKey(key);
    if (key in this.forms) return this.forms[key];
    if (!formsDeclared(this.capabilities)) return undefined;
    this.pending[key] = inputRequired.elicit({ message, requestedSchema: requestedSchema as never });
    throw new InputNeeded('elicit');
  }

  /**
   * The answers to `ctx.ask`, by key. Questions the client declared no capability for are
   * not asked (undefined); all the others that have no answer yet go out together in one
   * round (throws InputNeeded).
   */
  ask(questions: Record<string, Question>): Record<string, unknown> {
    const answers: Record<string, unknown> = {};
    for (const [key, question] of Object.entries(questions)) {
      checkQuestionKey(key);
      if ('elicit' in question) {
        if (key in this.forms) answers[key] = this.forms[key];
        else if (formsDeclared(this.capabilities)) {
          this.pending[key] = inputRequired.elicit({ message: question.elicit.message, requestedSchema: question.elicit.requestedSchema as never });
        }
      } else if ('sample' in question) {
        if (key in this.samples) answers[key] = this.samples[key];
        else if (this.capabilities?.sampling) {
          this.pending[key] = inputRequired.createMessage(question.sample as never);
          this.pendingKinds[key] = 'sample';
        }
      } else if (key in this.rootLists) answers[key] = this.rootLists[key];
      else if (this.capabilities?.roots) {
        this.pending[key] = inputRequired.listRoots();
        this.pendingKinds[key] = 'roots';
      }
    }
    if (this.needsInput) throw new InputNeeded('ask');
    return answers;
  }

  /**
   * Which roots this request has: '' for none (the client declared no roots), their JSON
   * once known, undefined while they are still to be asked.
   */
  rootsKey(): string | undefined {
    if (this.rootsKnown) return JSON.stringify(this.roots ?? []);
    if (this.rootsUnanswered) return undefined;
    return this.capabilities?.roots ? undefined : '';
  }

  get needsInput(): boolean {
    return Object.keys(this.pending).length > 0;
  }

  /** The `input_required` result that asks for what is still missing, with the answers so far sealed. */
  async result(seal: RequestStateSeal) {
    const state: SealedState = {
      call: this.call(),
      asked: Object.keys(this.pending),
      ...(this.rootsKnown && this.roots ? { roots: this.roots } : {}),
      ...(Object.keys(this.answers).length ? { answers: this.answers } : {}),
      ...(Object.keys(this.forms).length ? { forms: this.forms } : {}),
      ...(Object.keys(this.pendingKinds).length ? { kinds: this.pendingKinds } : {}),
      ...(Object.keys(this.samples).length ? { samples: this.samples } : {}),
      ...(Object.keys(this.rootLists).length ? { rootLists: this.rootLists } : {}),
    };
    return inputRequired({ inputRequests: this.pending, requestState: await seal.mint(state) });
  }
}
