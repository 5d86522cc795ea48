import * as vscode from 'vscode';
import { buildFollowUp, type FollowUpTurn } from '../../core/agents/followUp';
import { resolveOutputLanguage } from '../../core/agents/language';
import { resolveAgents } from '../../core/agents/registry';
import type { Gateway, StreamResult } from '../../core/gateway/types';
import type { Finding } from '../../core/domain/finding';
import { errorData, presentError } from '../gateway/gatewayErrors';
import type { ApiKeyCommands } from '../gateway/apiKeyCommands';
import type { QuorumLog } from '../log';
import type { ReviewSession } from '../review/reviewSession';
import type { SettingsService } from '../settings';
import type { FindingStore } from './findingStore';

interface FollowUpDeps {
  gateway: () => Gateway;
  settings: SettingsService;
  keys: ApiKeyCommands;
  store: FindingStore;
  session: (id: string) => ReviewSession | undefined;
  log: QuorumLog;
}

/** How a follow-up ended: the answer (its cost is in the session's ledger), or why there is none. */
type FollowUpOutcome = { ok: true; result: StreamResult } | { ok: false; reason: string; cancelled?: boolean };

/** A finding of a review the editor still knows, with the review it came from. */
export interface KnownFinding {
  session: ReviewSession;
  finding: Finding;
}

/**
 * Asks the agent that raised a finding a follow-up question (a reply in a review thread, the chat's /explain)
 * through the one shared gateway client: the request is core's (`buildFollowUp`), tagged with the agent and the
 * review, so that its cost joins the session's ledger and the status bar.
 */
export class FollowUps {
  constructor(private readonly deps: FollowUpDeps) {}

  /** The finding `findingId` of review `sessionId` (its merged form), while the review is known. */
  find(sessionId: string, findingId: string): KnownFinding | undefined {
    const session = this.deps.session(sessionId);
    if (!session) return undefined;
    const id = session.aliases.get(findingId) ?? findingId;
    const finding = this.deps.store.get(sessionId, id)?.finding ?? session.summary?.findings.find((f) => f.id === id);
    return finding ? { session, finding } : undefined;
  }

  /** Streams the answer to `question` through `onText`; `thread` is the conversation so far. */
  async ask(known: KnownFinding, question: string, thread: readonly FollowUpTurn[], onText: (text: string) => void, signal?: AbortSignal): Promise<FollowUpOutcome> {
    const { session, finding } = known;
    const settings = this.deps.settings.current;
    const agents = resolveAgents(settings).agents;
    const agent = finding.agents.map((id) => agents.find((a) => a.id === id)).find((a) => a !== undefined);
    if (!agent) return { ok: false, reason: vscode.l10n.t('The agent that raised this finding ({0}) is no longer configured.', finding.agents.join(', ')) };
    const region = session.fullTarget.regions[session.regionIndex(finding.file, finding.startLine, finding.endLine)];
    if (!region) return { ok: false, reason: vscode.l10n.t('The code of this finding is no longer known.') };
    if (!(await this.deps.keys.readyToSend())) return { ok: false, reason: vscode.l10n.t('Set the gateway API key to ask a follow-up question.') };
    const request = await buildFollowUp({
      agent,
      finding,
      code: { file: region.file, language: region.language, startLine: region.startLine, text: region.text },
      thread,
      question,
      language: resolveOutputLanguage(settings.review.language, vscode.env.language),
      redact: settings.privacy.redactSecrets,
      reviewId: session.id,
    });
    const stream = this.deps.gateway().stream(request, signal ? { signal } : {});
    try {
      let step = await stream.next();
      while (!step.done) {
        onText(step.value);
        step = await stream.next();
      }
      this.deps.log.info(`Follow-up on "${finding.title}" answered by ${agent.id} (${step.value.model}, $${step.value.costUsd.toFixed(4)})`);
      return { ok: true, result: step.value };
    } catch (error) {
      const data = errorData(error);
      this.deps.log.warn(`Follow-up on "${finding.title}" failed: ${data.code}`);
      if (data.code === 'cancelled') return { ok: false, reason: vscode.l10n.t('Cancelled.'), cancelled: true };
      return { ok: false, reason: presentError(data, { baseUrl: settings.gateway.baseUrl, agent: agent.id })?.text ?? data.message };
    }
  }
}
