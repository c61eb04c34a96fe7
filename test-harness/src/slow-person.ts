import type { ElicitAnswer } from '@mcp-reference/shared/client';

/**
 * A person who takes a while to answer a confirmation: `elicit` (for a client's options)
 * records the question, resolves `asked`, and waits until the test calls `answer()`; then it
 * agrees. For checks of what happens while a question is pending (ARCHITECTURE.md: ask
 * first, then lock). Call `answer()` in a `finally` too, so no call is left waiting.
 */
export interface SlowPerson {
  elicit(message: string): Promise<ElicitAnswer>;
  /** Resolves with the first question. */
  asked: Promise<string>;
  /** Every question, in order. */
  questions: string[];
  /** Lets the person answer (yes), now and for any later question. */
  answer(): void;
}

export function slowPerson(): SlowPerson {
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  let onAsked!: (message: string) => void;
  const asked = new Promise<string>((resolve) => (onAsked = resolve));
  const questions: string[] = [];
  return {
    async elicit(message) {
      questions.push(message);
      onAsked(message);
      await answered;
      return { action: 'accept', content: { confirm: true } };
    },
    asked,
    questions,
    answer,
  };
}

/** What `call` answered, or undefined when it is still waiting after `ms` (a lock held during a question waits for the person). */
export function unlessStillWaiting<T>(call: Promise<T>, ms = 15_000): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  return Promise.race([call, late]).finally(() => clearTimeout(timer));
}
