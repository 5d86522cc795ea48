import * as vscode from 'vscode';
import type { GatewayClient } from '../../core/gateway/client';
import { diagnoseGateway } from '../../core/doctor/doctor';
import { needsKey } from '../../core/gateway/localKey';
import type { ListedPriceTable } from '../../core/cost/prices';
import { GatewayError } from '../../core/gateway/types';
import { connectionDetail } from './connectionReport';
import type { AgentErrorCode } from '../../shared/reviewCodes';
import { formatMs } from '../../shared/format';
import type { ApiKeyStore } from '../apiKeys';
import type { QuorumLog } from '../log';
import type { Prompter } from '../prompter';
import { messageWithSettings } from '../windowPrompter';
import type { SettingsService } from '../settings';
import { checkApiKey, displayHost, isInsecureRemote, isLoopbackUrl, type ApiKeyProblem } from '../../core/gateway/baseUrl';
import { errorData, showGatewayError } from './gatewayErrors';

function problemText(problem: ApiKeyProblem): string {
  switch (problem) {
    case 'empty':
      return vscode.l10n.t('Enter the API key.');
    case 'bearer-prefix':
      return vscode.l10n.t('Enter the key without the "Bearer " prefix.');
    case 'whitespace':
      return vscode.l10n.t('An API key has no spaces or line breaks.');
    case 'not-ascii':
      return vscode.l10n.t('An API key has only printable ASCII characters.');
    case 'too-short':
      return vscode.l10n.t('This is too short to be an API key.');
    case 'too-long':
      return vscode.l10n.t('This is too long to be an API key.');
  }
}

export interface ConnectionReport {
  ok: boolean;
  latencyMs: number;
  models?: number;
  via: 'models' | 'chat';
  errorCode?: AgentErrorCode;
}

/**
 * Set, clear and test the gateway API key. The key goes straight from the password box to SecretStorage;
 * it is never shown, logged, or put in a message.
 */
export class ApiKeyCommands {
  private readonly warnedInsecure = new Set<string>();
  /** Gateways on this machine that answered without asking for a key: asked once a session, not before every review. */
  private readonly keyless = new Set<string>();

  constructor(
    private readonly keys: ApiKeyStore,
    private readonly settings: SettingsService,
    private readonly gateway: () => GatewayClient,
    private readonly prompter: Prompter,
    private readonly log: QuorumLog,
    /** The prices the gateway lists in `/models`, for what Test Connection says of each agent's model. */
    private readonly listed: () => ListedPriceTable = () => ({}),
  ) {}

  private get baseUrl(): string {
    return this.settings.current.gateway.baseUrl;
  }

  /** Asks for the key (password box) and stores it for the current base URL. Returns true when stored. */
  async setKey(): Promise<boolean> {
    const host = displayHost(this.baseUrl);
    const key = await this.prompter.input({
      id: 'apiKey.input',
      title: vscode.l10n.t('Quorum: API key for {0}', host),
      prompt: isLoopbackUrl(this.baseUrl)
        ? vscode.l10n.t('Optional for a server on this machine ({0}): Quorum works without a key there. A key you set is stored in VS Code\'s secret storage for it only.', this.keys.normalized(this.baseUrl))
        : vscode.l10n.t('The key is stored in VS Code\'s secret storage for {0} only.', this.keys.normalized(this.baseUrl)),
      placeHolder: vscode.l10n.t('Paste the gateway API key'),
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) => {
        const problem = checkApiKey(value);
        return problem ? problemText(problem) : undefined;
      },
    });
    if (key === undefined) return false;
    const problem = checkApiKey(key);
    if (problem) {
      void this.prompter.message('error', problemText(problem), { id: 'apiKey.invalid' });
      return false;
    }
    await this.keys.set(this.baseUrl, key);
    this.log.info(`API key stored for ${this.keys.normalized(this.baseUrl)}`);
    void this.warnIfInsecure();
    void vscode.window.setStatusBarMessage(vscode.l10n.t('$(key) Quorum: API key saved for {0}', host), 4000);
    return true;
  }

  async clearKey(): Promise<void> {
    const had = await this.keys.clear(this.baseUrl);
    this.log.info(`API key ${had ? 'removed' : 'was not set'} for ${this.keys.normalized(this.baseUrl)}`);
    void this.prompter.message(
      'info',
      had ? vscode.l10n.t('The API key for {0} was removed.', displayHost(this.baseUrl)) : vscode.l10n.t('No API key was stored for {0}.', displayHost(this.baseUrl)),
      { id: 'apiKey.cleared' },
    );
  }

  /**
   * Returns the key for the current base URL; when there is none, offers to set it and returns the new one.
   * Undefined when the user declined.
   */
  async ensureKey(): Promise<string | undefined> {
    const existing = await this.keys.get(this.baseUrl);
    if (existing) {
      void this.warnIfInsecure();
      return existing;
    }
    const set = vscode.l10n.t('Set API Key');
    const choice = await this.prompter.message(
      'warning',
      vscode.l10n.t('No API key is set for {0}. Set one to continue.', displayHost(this.baseUrl)),
      { id: 'apiKey.missing' },
      set,
    );
    if (choice !== set) return undefined;
    if (!(await this.setKey())) return undefined;
    return this.keys.get(this.baseUrl);
  }

  /** Before a request: a key is set, or the gateway is on this machine (local servers need none), or one is set now. */
  async readyToSend(): Promise<boolean> {
    if (isLoopbackUrl(this.baseUrl) && !(await this.keys.get(this.baseUrl))) {
      const url = this.keys.normalized(this.baseUrl);
      if (this.keyless.has(url)) return true;
      if (!(await needsKey(this.baseUrl, { headers: this.settings.current.gateway.extraHeaders }))) {
        this.keyless.add(url);
        return true;
      }
    }
    return Boolean(await this.ensureKey());
  }

  /** Warns once per base URL when the key would travel over plain http to another machine. */
  async warnIfInsecure(): Promise<void> {
    const url = this.keys.normalized(this.baseUrl);
    if (!isInsecureRemote(url) || this.warnedInsecure.has(url)) return;
    this.warnedInsecure.add(url);
    this.log.warn(`The gateway ${url} uses plain http: the API key is sent unencrypted`);
    const text = vscode.l10n.t('The gateway {0} uses plain http://: your API key and code cross the network unencrypted. Use https:// if the gateway supports it.', displayHost(url));
    await messageWithSettings(this.prompter, 'warning', text, 'gateway.insecure', 'quorum.gateway.baseUrl');
  }

  /**
   * Says what this gateway does (one tiny request per agent model, then `/models`; where `/models` is missing,
   * one more tiny request) on one screen, or shows the failure with the action that fixes it.
   */
  async testConnection(): Promise<ConnectionReport | undefined> {
    // A local server that takes no key (Ollama, LM Studio, llama.cpp, vLLM) is tested without one, as reviews go.
    if (!(await this.readyToSend())) return undefined;
    const host = displayHost(this.baseUrl);
    return this.prompter.progress(
      { id: 'connection.progress', title: vscode.l10n.t('Quorum: testing the connection to {0}…', host) },
      async (_progress, token) => {
        const abort = new AbortController();
        const sub = token.onCancellationRequested(() => abort.abort());
        const started = performance.now();
        try {
          const report = await this.connectionReport(abort.signal);
          this.log.info(`Connection test to ${this.keys.normalized(this.baseUrl)}: ok in ${Math.round(report.latencyMs)} ms via ${report.via}${report.models !== undefined ? `, ${report.models} models` : ''}`);
          return report;
        } catch (error) {
          const data = errorData(error);
          const latencyMs = performance.now() - started;
          this.log.warn(`Connection test to ${this.keys.normalized(this.baseUrl)} failed after ${Math.round(latencyMs)} ms: ${data.code}: ${data.message}`);
          if (data.code === 'cancelled') return { ok: false, latencyMs, via: 'models', errorCode: data.code };
          void showGatewayError(this.prompter, error, { baseUrl: this.baseUrl }, 'connection.failed');
          return { ok: false, latencyMs, via: 'models', errorCode: data.code };
        } finally {
          sub.dispose();
        }
      },
    );
  }

  /** Runs the checks and shows what they found; throws the gateway's error when `/models` fails for another reason than being absent. */
  private async connectionReport(signal: AbortSignal): Promise<ConnectionReport> {
    const host = displayHost(this.baseUrl);
    const doctor = await diagnoseGateway(this.gateway(), this.settings.current, { signal, listed: this.listed });
    let report: ConnectionReport;
    if (doctor.models.ok) {
      report = { ok: true, latencyMs: doctor.models.latencyMs, models: doctor.models.ids.length, via: 'models' };
    } else {
      const data = doctor.models.error;
      if (data.code !== 'model-not-found' && data.status !== 404 && data.status !== 405) throw new GatewayError(data);
      // No /models on this gateway: one tiny chat request instead.
      const model = this.settings.current.agents.analyst.model;
      const t0 = performance.now();
      const it = this.gateway().stream({ model, messages: [{ role: 'user', content: 'ping' }], maxTokens: 1, tag: { agent: 'connection-test' } }, { signal });
      while (!(await it.next()).done) {
        // The answer is drained, not read: that it came is the test.
      }
      report = { ok: true, latencyMs: performance.now() - t0, via: 'chat' };
    }
    const text = report.via === 'models'
      ? vscode.l10n.t('Connected to {0} in {1}: {2} models available.', host, formatMs(report.latencyMs), report.models ?? 0)
      : vscode.l10n.t('Connected to {0}: a test request answered in {1}.', host, formatMs(report.latencyMs));
    void this.prompter.message('info', text, { id: 'connection.ok', modal: true, detail: connectionDetail(doctor) });
    return report;
  }
}
