import type * as vscode from 'vscode';
import { parseLastResults, recordResults, type LastResult, type LastResults } from '../../core/eval/lastResults';
import type { RunFigures } from '../../core/eval/score';

/** How long after a write the store checks that `globalState` still holds it, and how often it tries again. */
const RECHECK_MS = 1_000;
const RECHECKS = 5;

/**
 * The last measured figures per agent × model, kept in `globalState` and validated each time they are read.
 *
 * A write to `globalState` made right after a burst of others (a comparison prices an attempt per case, and the
 * monthly spend is written each time) can be undone by the late echo of an earlier write: seen in a remote
 * extension host (code-server 1.139), where the key was gone a moment after `update` resolved. So the store
 * keeps what it wrote this session, answers from it, and writes it again until `globalState` holds it.
 */
export class MeasuredModels implements vscode.Disposable {
  static readonly KEY = 'quorum.eval.lastResults';
  private latest: LastResults | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly state: vscode.Memento) {}

  all(): LastResult[] {
    return this.latest?.results ?? parseLastResults(this.state.get<unknown>(MeasuredModels.KEY));
  }

  async record(runs: readonly RunFigures[], now = new Date()): Promise<void> {
    this.latest = recordResults(this.all(), runs, now);
    await this.state.update(MeasuredModels.KEY, this.latest);
    this.recheck(RECHECKS);
  }

  private recheck(left: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (left <= 0 || !this.latest) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const stored = JSON.stringify(this.state.get<unknown>(MeasuredModels.KEY));
      if (stored === JSON.stringify(this.latest)) return;
      void Promise.resolve(this.state.update(MeasuredModels.KEY, this.latest)).then(() => this.recheck(left - 1), () => this.recheck(left - 1));
    }, RECHECK_MS);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
