/**
 * One pending timeout at a time (consensus/ticker.go): a new timeout replaces the pending one
 * only if it is for a later or equal height/round and a later step, so stale timeouts never
 * override newer ones.
 */
export enum RoundStep {
  NewHeight = 1,
  NewRound = 2,
  Propose = 3,
  Prevote = 4,
  PrevoteWait = 5,
  Precommit = 6,
  PrecommitWait = 7,
  Commit = 8,
}

export const ROUND_STEP_NAMES: Record<RoundStep, string> = {
  [RoundStep.NewHeight]: 'RoundStepNewHeight',
  [RoundStep.NewRound]: 'RoundStepNewRound',
  [RoundStep.Propose]: 'RoundStepPropose',
  [RoundStep.Prevote]: 'RoundStepPrevote',
  [RoundStep.PrevoteWait]: 'RoundStepPrevoteWait',
  [RoundStep.Precommit]: 'RoundStepPrecommit',
  [RoundStep.PrecommitWait]: 'RoundStepPrecommitWait',
  [RoundStep.Commit]: 'RoundStepCommit',
};

export interface TimeoutInfo {
  durationMs: number;
  height: number;
  round: number;
  step: RoundStep;
}

export class TimeoutTicker {
  private last: TimeoutInfo | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly onTimeout: (ti: TimeoutInfo) => void) {}

  schedule(ti: TimeoutInfo): void {
    const last = this.last;
    if (last) {
      if (ti.height < last.height) return;
      if (ti.height === last.height) {
        if (ti.round < last.round) return;
        if (ti.round === last.round && last.step > 0 && ti.step <= last.step) return;
      }
    }
    this.stop();
    this.last = ti;
    const fire = (): void => {
      this.timer = undefined;
      this.immediate = undefined;
      this.onTimeout(ti);
    };
    // setTimeout(0) waits at least 1 ms; an already-due timeout (timeout_commit = 0) fires on the next turn.
    if (ti.durationMs <= 0) this.immediate = setImmediate(fire);
    else this.timer = setTimeout(fire, ti.durationMs);
  }

  private immediate: NodeJS.Immediate | undefined;

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
  }
}
