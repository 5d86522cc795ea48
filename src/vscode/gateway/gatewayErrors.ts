import * as vscode from 'vscode';
import { GatewayError } from '../../core/gateway/types';
import type { AgentError } from '../../core/domain/result';
import { Commands } from '../commands';
import type { Prompter } from '../prompter';
import { displayHost } from '../../core/gateway/baseUrl';
import { formatMs } from '../../shared/format';

/** The plain data of any thrown value that we can show: a GatewayError's data, or an internal failure. */
export function errorData(error: unknown): AgentError {
  if (error instanceof GatewayError) return error.toJSON();
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}

interface ErrorContext {
  baseUrl: string;
  /** The agent whose model failed, so that "Switch Model" starts there. */
  agent?: string;
}

interface Presented {
  text: string;
  actions: { title: string; run: () => Thenable<unknown> }[];
}

/** A localised sentence and the actions that fix the problem, for one gateway failure. */
export function presentError(d: AgentError, ctx: ErrorContext): Presented | undefined {
  const host = displayHost(ctx.baseUrl);
  const setKey = { title: vscode.l10n.t('Set API Key'), run: () => vscode.commands.executeCommand(Commands.setApiKey) };
  const switchModel = { title: vscode.l10n.t('Switch Model'), run: () => vscode.commands.executeCommand(Commands.switchModel, ctx.agent, d.suggestions ?? []) };
  const testConnection = { title: vscode.l10n.t('Test Connection'), run: () => vscode.commands.executeCommand(Commands.testConnection) };
  const openSettings = (query: string) => ({ title: vscode.l10n.t('Open Settings'), run: () => vscode.commands.executeCommand('workbench.action.openSettings', query) });
  const status = d.status ? ` (HTTP ${d.status})` : '';
  // The gateway's own words, where they say what Quorum cannot (no channel for the model, a model not pulled).
  const said = d.detail ? ' ' + vscode.l10n.t('The gateway said: "{0}"', d.detail.slice(0, 300)) : '';
  switch (d.code) {
    case 'cancelled':
      return undefined;
    case 'auth':
      return { text: vscode.l10n.t('{0} refused the API key{1}. Set a valid key for this gateway.', host, status), actions: [setKey] };
    case 'forbidden':
      return { text: vscode.l10n.t('{0} refused access{1} to model {2}. Your key may not include this model.', host, status, d.model ?? '?'), actions: [switchModel, setKey] };
    case 'model-not-found': {
      const closest = d.suggestions && d.suggestions.length > 0 ? ' ' + vscode.l10n.t('Closest: {0}.', d.suggestions.slice(0, 3).join(', ')) : '';
      return { text: vscode.l10n.t('{0} does not know the model {1}.', host, d.model ?? '?') + closest + said, actions: [switchModel] };
    }
    case 'rate-limited': {
      const wait = d.retryAfterMs ? ' ' + vscode.l10n.t('It asked to wait {0}.', formatMs(d.retryAfterMs)) : '';
      const kept = d.waitedMs !== undefined && (d.attempts ?? 1) > 1
        ? vscode.l10n.t('{0} kept answering 429 (rate limited): Quorum waited {1} over {2} attempts.', host, formatMs(d.waitedMs), d.attempts ?? 1)
        : vscode.l10n.t('{0} kept answering 429 (rate limited) after {1} attempts.', host, d.attempts ?? 1);
      return { text: kept + wait, actions: [openSettings('quorum.limits')] };
    }
    case 'quota':
      return { text: vscode.l10n.t('{0} says the quota or credit of this key is used up.', host), actions: [setKey] };
    case 'too-large':
      return { text: vscode.l10n.t('The code is too large for model {0}. Select less code or use a model with a larger context.', d.model ?? '?'), actions: [switchModel] };
    case 'timeout':
      return { text: vscode.l10n.t('{0} did not answer in time (model {1}).', host, d.model ?? '?'), actions: [openSettings('quorum.limits'), testConnection] };
    case 'network':
      // The low-level cause ("fetch failed", in English) is in the log; the notification says what to check.
      return { text: vscode.l10n.t('Could not reach {0}. Check the base URL setting and your connection.', host), actions: [openSettings('quorum.gateway.baseUrl'), testConnection] };
    case 'server':
      return { text: vscode.l10n.t('{0} failed{1} for model {2}.', host, status, d.model ?? '?') + said, actions: [testConnection, switchModel] };
    case 'bad-response':
      return { text: vscode.l10n.t('{0} sent an answer Quorum could not read (model {1}).', host, d.model ?? '?') + said, actions: [switchModel] };
    case 'empty-answer':
      return { text: vscode.l10n.t('{0} sent an empty answer (model {1}).', host, d.model ?? '?'), actions: [switchModel] };
    case 'inputs-failed':
    case 'internal':
      return { text: vscode.l10n.t('Quorum failed: {0}', d.message), actions: [testConnection] };
  }
}

/** Shows one gateway failure as an error notification with its fixing actions, and runs the one chosen. */
export async function showGatewayError(prompter: Prompter, error: unknown, ctx: ErrorContext, id = 'gateway.error'): Promise<string | undefined> {
  const presented = presentError(errorData(error), ctx);
  if (!presented) return undefined;
  const choice = await prompter.message('error', presented.text, { id }, ...presented.actions.map((a) => a.title));
  const action = presented.actions.find((a) => a.title === choice);
  if (action) await action.run();
  return choice;
}
