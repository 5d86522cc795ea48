import * as vscode from 'vscode';
import { compactFindings } from '../../core/report/compactFindings';
import { displayHost } from '../../core/gateway/baseUrl';
import { estimateLabel } from '../../shared/panelStrings';
import { formatUsd } from '../../shared/format';
import { escapeMarkdown } from '../../shared/untrustedText';
import type { ChangesCommands } from '../changes/changesCommands';
import { describePlan } from '../changes/changesLabels';
import type { ReviewController } from '../review/reviewController';
import { prepareScope } from '../review/reviewScope';
import { inputProblem, reviewScopeInput } from '../review/reviewScopeInput';
import { runScopedReview } from '../review/scopedReview';
import type { PreparedTarget } from '../review/reviewTarget';
import type { PlannedReview } from '../../core/review/reviewRequest';
import type { SettingsService } from '../settings';
import { untrustedMarkdown } from '../threads/threadMarkdown';

interface ReviewToolDeps {
  controller: ReviewController;
  changes: ChangesCommands;
  settings: SettingsService;
}

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

/** What the review would send and cost, for the confirmation. */
function estimateText(prepared: PreparedTarget, plan: PlannedReview, baseUrl: string): string {
  const { estimate } = plan;
  const agents = estimate.order.map((a) => `${a} (${estimate.perAgent[a]?.model ?? '?'})`).join(', ');
  let what: string;
  if (plan.changes) what = describePlan(plan.changes, estimate);
  else {
    const cost = estimateLabel((key, ...args) => (key === 'costEstimate' ? vscode.l10n.t('≈ {0} likely · up to {1}', ...args) : vscode.l10n.t('up to {0}', ...args)), formatUsd, estimate.costUsd, estimate.likelyUsd);
    const tokens = Object.values(estimate.perAgent).reduce((n, a) => n + a.promptTokens, 0);
    what = vscode.l10n.t('about {0} tokens in {1} requests · {2}', tokens.toLocaleString('en-US'), estimate.requests, cost);
  }
  return vscode.l10n.t('Quorum will send {0} to {1} through {2}: {3}.', prepared.target.label, agents, displayHost(baseUrl), what);
}

/**
 * The agent-mode tool `quorum_review`: an agent asks Quorum to review the selection, a file or changes. The
 * confirmation shows the estimate before anything is sent; the result is the merged findings as compact text. An
 * adapter over the review controller: the same key, budgets, panel, Problems and threads as the commands.
 */
export class ReviewTool implements vscode.LanguageModelTool<unknown> {
  constructor(private readonly deps: ReviewToolDeps) {}

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): Promise<vscode.PreparedToolInvocation> {
    const parsed = reviewScopeInput.safeParse(options.input);
    if (!parsed.success) return { invocationMessage: vscode.l10n.t('Quorum: invalid review request') };
    const prepared = await prepareScope(parsed.data, this.deps.changes);
    if (!prepared || 'refused' in prepared) return { invocationMessage: vscode.l10n.t('Quorum: nothing to review') };
    const estimate = await this.deps.controller.estimate(prepared);
    const detail = estimate ? estimateText(prepared, estimate, this.deps.settings.current.gateway.baseUrl) : vscode.l10n.t('Quorum could not estimate this review.');
    return {
      invocationMessage: vscode.l10n.t('Reviewing {0} with Quorum…', prepared.target.label),
      confirmationMessages: { title: vscode.l10n.t('Review with Quorum?'), message: untrustedMarkdown(escapeMarkdown(detail)) },
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const parsed = reviewScopeInput.safeParse(options.input);
    if (!parsed.success) return textResult(`Error: ${inputProblem(parsed.error)}`);
    const prepared = await prepareScope(parsed.data, this.deps.changes);
    if (!prepared) return textResult('Error: there is nothing to review there (no repository, or no changes).');
    if ('refused' in prepared) return textResult(`Error: Quorum cannot review this: ${prepared.refused}.`);
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    try {
      const review = await runScopedReview(this.deps.controller, prepared, parsed.data.minSeverity, abort.signal);
      if (!review) return textResult('Error: Quorum did not run the review (no API key, over budget, a file that is never sent, or the user declined). The editor says why.');
      if (review.summary.cancelled) return textResult('Error: the review was cancelled.');
      const failed = review.summary.agents.filter((a) => a.status === 'error').map((a) => ({ agent: a.agent, code: a.error?.code ?? 'error' }));
      return textResult(compactFindings({ label: review.summary.target.label, findings: review.shown, hidden: review.hidden, costUsd: review.summary.totals.costUsd, failed }));
    } finally {
      sub.dispose();
    }
  }
}
