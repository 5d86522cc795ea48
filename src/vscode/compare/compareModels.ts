import * as vscode from 'vscode';
import { resolveOutputLanguage } from '../../core/agents/language';
import { resolveAgents } from '../../core/agents/registry';
import { buildModelChoices, priceLabel } from '../../core/cost/modelChoices';
import type { CostLedger } from '../../core/cost/ledger';
import type { ListedPrices } from '../../core/cost/listedPrices';
import { CorpusError, isClean, loadCorpus, type Corpus } from '../../core/eval/corpus';
import { shownComparison } from '../../core/eval/shownComparison';
import { MAX_COMPARED_MODELS, planRuns, type EvalRunSpec } from '../../core/eval/plan';
import { estimateEval, runEval, type EvalDeps, type EvalReport } from '../../core/eval/runner';
import type { Gateway } from '../../core/gateway/types';
import { modelIdSchema } from '../../core/settings/schema';
import { ReviewConfigError } from '../../core/pipeline/errors';
import { formatUsd } from '../../shared/format';
import { escapeIcons } from '../../shared/untrustedText';
import type { ApiKeyCommands } from '../gateway/apiKeyCommands';
import { errorData } from '../gateway/gatewayErrors';
import type { QuorumLog } from '../log';
import { agentTitle } from '../models/switchModel';
import type { Prompter } from '../prompter';
import type { BudgetGuard } from '../review/budgetGuard';
import type { SettingsService } from '../settings';
import type { ComparePanel } from './comparePanel';
import type { CorpusChoice, EvalCorpus } from './evalCorpus';
import type { MeasuredModels } from './measuredModels';

interface CompareModelsDeps {
  settings: SettingsService;
  /** The one shared gateway client (its rate limits, retries and the session's ledger). */
  gateway: () => Gateway;
  ledger: CostLedger;
  /** What the gateway's `/models` listed prices at (learnt when the models are offered): the estimate uses them. */
  listedPrices: ListedPrices;
  prompter: Prompter;
  keys: ApiKeyCommands;
  budget: BudgetGuard;
  log: QuorumLog;
  measured: MeasuredModels;
  panel: ComparePanel;
  /** Which corpus `quorum.eval.corpus` selects (the shipped one, or the team's own). */
  corpus: EvalCorpus;
}

interface AgentItem extends vscode.QuickPickItem {
  agent: string;
}

interface ModelItem extends vscode.QuickPickItem {
  model: string;
}

/**
 * "Quorum: Compare Models…": pick an agent and 2–5 models, see the estimated cost and confirm (and the budget
 * prompts of a review), run the core eval over the shipped corpus through the shared client under a cancellable
 * progress, keep each model's figures (for Switch Model), and show the table and chart in the compare page.
 */
export class CompareModels {
  constructor(private readonly deps: CompareModelsDeps) {}

  async run(): Promise<EvalReport | undefined> {
    const { prompter, settings } = this.deps;
    // The corpus first: a malformed case or an empty corpus stops here, before any question or request.
    const source = this.corpusChoice();
    const corpus = source && (await this.loadChosen(source));
    if (!source || !corpus) return undefined;
    const scored = resolveAgents(settings.current).agents.filter((a) => a.output === 'findings');
    const agentItems: AgentItem[] = scored.map((a) => ({ agent: a.id, label: `$(person) ${escapeIcons(agentTitle(a.id, a.title))}`, description: escapeIcons(a.model) }));
    const pickedAgent = await prompter.pick(agentItems, {
      id: 'compare.agent',
      title: vscode.l10n.t('Quorum: Compare Models — choose an agent'),
      placeHolder: vscode.l10n.t('Which agent should be measured on several models?'),
    });
    const spec = pickedAgent && scored.find((a) => a.id === pickedAgent.agent);
    if (!spec) return undefined;
    const models = await this.pickModels(spec.id, spec.model, source);
    if (!models) return undefined;

    let runs: EvalRunSpec[];
    try {
      runs = planRuns(settings.current, { compare: { [spec.id]: models } });
    } catch (e) {
      if (!(e instanceof ReviewConfigError)) throw e;
      void prompter.message('error', vscode.l10n.t('Quorum cannot compare models: {0}', e.message), { id: 'compare.invalid' });
      return undefined;
    }
    if (!(await this.deps.keys.readyToSend())) return undefined;

    const language = resolveOutputLanguage(settings.current.review.language, vscode.env.language);
    const evalDeps: EvalDeps = { gateway: this.deps.gateway(), settings: () => settings.current, ledger: this.deps.ledger, listedPrices: this.deps.listedPrices };
    const estimate = estimateEval(corpus, evalDeps, runs, language);
    if (!(await this.confirmed(estimate, runs.length, agentTitle(spec.id, spec.title), corpus.cases.length))) return undefined;

    this.deps.log.info(`Compare Models: ${spec.id} on ${models.join(', ')} over ${corpus.cases.length} cases (estimate likely ${formatUsd(estimate.likelyUsd)}, at most ${formatUsd(estimate.costUsd)})`);
    const report = await this.runUnderProgress(corpus, evalDeps, runs, language, agentTitle(spec.id, spec.title));
    for (const r of report.runs) {
      this.deps.log.info(`Compare Models: ${r.agent} on ${r.model}: F1 ${r.f1 ?? '-'}, precision ${r.precision ?? '-'}, recall ${r.recall ?? '-'}, ${formatUsd(r.costUsd)}, ${r.failures}/${r.cases} failed`);
    }
    // A stopped comparison's figures count unfinished cases as failures: shown, never kept.
    if (report.cancelled) {
      const measured = this.tellStopped(report, corpus.cases.length);
      this.deps.log.info(`Compare Models: stopped after ${measured} of ${runs.length * corpus.cases.length} cases (${formatUsd(report.spentUsd)} spent); nothing kept`);
      if (measured === 0) return report;
    } else {
      await this.deps.measured.record(report.runs, source.key);
    }
    const corpusShown = { label: source.label, cases: corpus.cases.length, clean: corpus.cases.filter(isClean).length };
    this.deps.panel.show(shownComparison({ id: spec.id, title: agentTitle(spec.id, spec.title) }, corpusShown, report), spec.model);
    return report;
  }

  /** The chosen corpus, read; undefined when a case is malformed or there is none (said). */
  private async loadChosen(source: CorpusChoice): Promise<Corpus | undefined> {
    try {
      return await loadCorpus(source.dir);
    } catch (e) {
      if (!(e instanceof CorpusError)) throw e;
      void this.deps.prompter.message('error', this.corpusProblem(source, e), { id: 'compare.invalid' });
      return undefined;
    }
  }

  /** Asks before the comparison is run, with its estimate; then the budgets. */
  private async confirmed(estimate: ReturnType<typeof estimateEval>, models: number, agent: string, cases: number): Promise<boolean> {
    const unpriced = estimate.perRun.filter((r) => !r.priced).map((r) => r.model);
    const go = vscode.l10n.t('Run');
    const choice = await this.deps.prompter.message(
      'info',
      vscode.l10n.t('Compare {0} models for {1} over {2} cases ({3} requests): likely {4}, at most {5}.', models, agent, cases, estimate.requests, formatUsd(estimate.likelyUsd), formatUsd(estimate.costUsd)),
      { id: 'compare.confirm', modal: true, ...(unpriced.length > 0 ? { detail: vscode.l10n.t('No price is known for {0}: its share is not in the estimate.', unpriced.join(', ')) } : {}) },
      go,
    );
    return choice === go && (await this.deps.budget.allows(estimate.costUsd, estimate.likelyUsd));
  }

  /**
   * The corpus to run: `quorum.eval.corpus` resolved against the workspace folder, or the shipped one (when the
   * setting is empty, and — said once per run — in an untrusted workspace). Undefined when a relative path has no
   * folder to be relative to (said).
   */
  private corpusChoice(): CorpusChoice | undefined {
    const resolved = this.deps.corpus.resolve();
    if (!resolved.choice) {
      void this.deps.prompter.message('error', vscode.l10n.t('Quorum cannot compare models: quorum.eval.corpus ("{0}") is relative to the workspace folder, and no folder is open.', resolved.relativeWithoutFolder), { id: 'compare.invalid' });
      return undefined;
    }
    if (resolved.ignoredUntrusted !== undefined) {
      void this.deps.prompter.message('warning', vscode.l10n.t('This workspace is not trusted: quorum.eval.corpus ("{0}") is ignored and the shipped corpus is measured.', resolved.ignoredUntrusted), { id: 'compare.corpusUntrusted' });
      this.deps.log.warn(`Compare Models: quorum.eval.corpus ignored in an untrusted workspace`);
    }
    return resolved.choice;
  }

  /** A corpus that cannot be used: which corpus, then the error (which names the case and the field). */
  private corpusProblem(choice: CorpusChoice, e: CorpusError): string {
    const which = choice.own ? vscode.l10n.t('the corpus of quorum.eval.corpus ({0})', choice.dir) : vscode.l10n.t('the shipped corpus');
    return vscode.l10n.t('Quorum cannot compare models: {0}: {1}', which, e.message);
  }

  /** Says what a stopped comparison measured (per model) and spent, and that nothing is kept; returns the cases measured. */
  private tellStopped(report: EvalReport, cases: number): number {
    const measured = report.finished.reduce((s, n) => s + n, 0);
    const spent = formatUsd(report.spentUsd);
    const text = measured === 0
      ? vscode.l10n.t('Quorum stopped comparing models before any case was measured ({0} spent). Nothing is kept.', spent)
      : vscode.l10n.t('Quorum stopped comparing models after {0} of {1} cases ({2}; {3} spent). The figures count unfinished cases as failures and are not kept for Switch Model.',
        measured, report.runs.length * cases, report.runs.map((r, i) => `${r.model} ${report.finished[i] ?? 0}/${cases}`).join(', '), spent);
    void this.deps.prompter.message('info', text, { id: 'compare.stopped' });
    return measured;
  }

  /** 2–5 models from the gateway's `/models` (or the built-in agents' models), with prices and the last F1 measured for this agent on `corpus`. */
  private async pickModels(agent: string, current: string, corpus: CorpusChoice): Promise<string[] | undefined> {
    const items = (async (): Promise<ModelItem[]> => {
      let listed: string[] | undefined;
      try {
        // Reading /models also teaches the shared ListedPrices what the gateway lists.
        listed = (await this.deps.gateway().listModels()).map((m) => m.id);
      } catch (error) {
        const d = errorData(error);
        this.deps.log.warn(`Compare Models: /models failed (${d.code}: ${d.message}); offering the built-in agents' models`);
      }
      // An id Quorum would refuse (markup, links, bidi controls…) cannot be compared: not offered, only counted in the log.
      const usable = listed?.filter((id) => modelIdSchema.safeParse(id).success);
      if (listed && usable && usable.length < listed.length) this.deps.log.warn(`Compare Models: ${listed.length - usable.length} model id(s) from /models are not valid model ids and are not offered`);
      const measuredOn = this.deps.measured.labeller(agent, corpus);
      const listedPrices = this.deps.listedPrices.for(this.deps.settings.current.gateway.baseUrl);
      return buildModelChoices({ gatewayModels: usable, listedPrices, overrides: this.deps.settings.current.prices, current: [current] }).map((c) => {
        const measured = measuredOn(c.id);
        const price = c.price ? `${priceLabel(c.price)}${c.priceSource === 'listed' ? ` (${vscode.l10n.t("the gateway's list")})` : ''}` : vscode.l10n.t('price unknown');
        return {
          model: c.id,
          label: escapeIcons(c.id),
          description: measured ? `${measured} · ${price}` : price,
          detail: c.current ? vscode.l10n.t('current') : undefined,
          picked: c.current,
        };
      });
    })();
    const picked = await this.deps.prompter.pickMany(items, {
      id: 'compare.models',
      title: vscode.l10n.t('Quorum: Compare Models — choose 2 to {0} models', MAX_COMPARED_MODELS),
      placeHolder: vscode.l10n.t('Prices are US dollars per million tokens (input · output)'),
      matchOnDescription: true,
    });
    if (!picked) return undefined;
    if (picked.length < 2 || picked.length > MAX_COMPARED_MODELS) {
      void this.deps.prompter.message('warning', vscode.l10n.t('Choose between 2 and {0} models to compare (you chose {1}).', MAX_COMPARED_MODELS, picked.length), { id: 'compare.count' });
      return undefined;
    }
    return picked.map((p) => p.model);
  }

  private runUnderProgress(corpus: Corpus, deps: EvalDeps, runs: readonly EvalRunSpec[], language: string, title: string): Thenable<EvalReport> {
    return this.deps.prompter.progress({ id: 'compare.progress', title: vscode.l10n.t('Quorum: comparing models for {0}', title) }, async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      if (token.isCancellationRequested) abort.abort();
      let reported = 0;
      try {
        return await runEval(corpus, deps, {
          runs,
          language,
          signal: abort.signal,
          onProgress: (p) => {
            progress.report({
              increment: p.total > 0 ? ((p.done - reported) / p.total) * 100 : 100,
              message: vscode.l10n.t('{0} of {1} cases · {2} · {3} failed', p.done, p.total, formatUsd(p.costUsd), p.failures),
            });
            reported = p.done;
          },
        });
      } finally {
        sub.dispose();
      }
    });
  }
}
