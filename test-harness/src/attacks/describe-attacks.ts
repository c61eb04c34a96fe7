// One class of attack against a server, as a table: a hostile fixture, a control that
// shows the attack is live (its plain counterpart runs the planted program), and the
// calls an attacker would make, each its own test so that one slow call never takes
// the others' time. Every call must be refused (or, where marked, may succeed) and
// must have no effect: no planted program ran, and the class's own check holds.
import { afterAll, beforeAll, beforeEach, describe, it, expect } from 'vitest';
import { expectNoMarker, makeMarker, type Marker } from './marker.js';
import { textOf, type ToolResult } from '../tool-session.js';

export interface AttackCase<F> {
  name: string;
  /**
   * 'refused': the answer must be an isError result; 'harmless': it must succeed (the
   * server did its job without running anything); 'either': success or a failure git
   * itself reports (a conflict, a connection refused), as long as nothing ran.
   */
  outcome: 'refused' | 'harmless' | 'either';
  call(fixture: F): Promise<ToolResult>;
  /** What "no effect" means beyond the marker (a secret absent from the answer, state unchanged). */
  check?(fixture: F, result: ToolResult): Promise<void> | void;
}

export interface AttackClass<F> {
  /** What the attacker does, e.g. "a filter named in another letter case". */
  name: string;
  /** Builds the hostile fixture; the programs it names are `marker.program(...)`. */
  arrange(marker: Marker): Promise<F>;
  /**
   * Runs the attack without the server (plain git, say) and shows it works: a planted
   * program ran (`expectMarker`) or a secret came out. Without it a refusal proves nothing.
   */
  control?(fixture: F, marker: Marker): Promise<void>;
  /** Before each case and the control (e.g. make a file look modified again). */
  reset?(fixture: F): Promise<void>;
  cases: AttackCase<F>[];
  cleanup(fixture: F): Promise<void>;
  /** Per test, for calls that spawn processes on a busy machine (default 60 s). */
  timeoutMs?: number;
}

export function describeAttack<F>(attack: AttackClass<F>): void {
  describe(attack.name, () => {
    let marker: Marker;
    let fixture: F;
    const timeout = attack.timeoutMs ?? 60_000;
    beforeAll(async () => {
      marker = await makeMarker();
      fixture = await attack.arrange(marker);
    }, timeout);
    afterAll(async () => {
      if (fixture !== undefined) await attack.cleanup(fixture);
      await marker?.cleanup();
    });
    beforeEach(async () => {
      await attack.reset?.(fixture);
      // Each case proves itself: what an earlier one left does not fail it.
      await marker.clear();
    });
    if (attack.control) {
      it('control: without the server, the attack works', async () => {
        await attack.control!(fixture, marker);
        await marker.clear();
      }, timeout);
    }
    for (const attempt of attack.cases) {
      it(`${attempt.name}: ${attempt.outcome}, and no planted program runs`, async () => {
        const result = await attempt.call(fixture);
        const label = `${attempt.name}: ${textOf(result).slice(0, 300)}`;
        if (attempt.outcome === 'refused') expect(result.isError, label).toBe(true);
        if (attempt.outcome === 'harmless') expect(result.isError, label).toBeFalsy();
        await expectNoMarker(marker, label);
        await attempt.check?.(fixture, result);
      }, timeout);
    }
  });
}
