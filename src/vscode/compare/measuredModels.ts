import * as vscode from 'vscode';
import { f1Label, lastResultFor, parseLastResults, recordResults, type LastResult, type LastResults } from '../../core/eval/lastResults';
import type { RunFigures } from '../../core/eval/score';
import { escapeIcons } from '../../shared/untrustedText';
import type { CorpusChoice } from './evalCorpus';

/** How long after a write the store checks that `globalState` still holds it, and how often it tries again. */
const RECHECK_MS = 1_000;
const RECHECKS = 5;

/**
 * The last measured figures per agent × model × corpus, kept in `globalState` and validated each time they are read.
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

  /**
   * What Switch Model and Compare Models show beside each model's price: the agent's last F1 on it, measured on the
   * corpus in use, naming that corpus (`F1 0.72 on shipped corpus`); undefined when none was measured on it. The
   * stored figures are read once per list, not once per model.
   */
  labeller(agent: string, corpus: CorpusChoice | undefined): (model: string) => string | undefined {
    if (!corpus) return () => undefined;
    const results = this.all();
    return (model) => {
      const last = lastResultFor(results, agent, model, corpus.key);
      return last ? vscode.l10n.t('{0} on {1}', f1Label(last), escapeIcons(corpus.label)) : undefined;
    };
  }

  /** Keeps the figures of finished runs on the corpus `corpus` (a CorpusChoice's key). */
  async record(runs: readonly RunFigures[], corpus: string, now = new Date()): Promise<void> {
    this.latest = recordResults(this.all(), runs, corpus, now);
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
