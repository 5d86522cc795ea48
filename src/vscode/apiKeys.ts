import type * as vscode from 'vscode';
import { normalizeBaseUrl, secretKeyFor } from '../core/gateway/baseUrl';
import type { Redactor } from '../core/redaction/redactor';

/**
 * The gateway API key, one per base URL, kept only in VS Code's SecretStorage (`quorum.apiKey:<base URL>`).
 * Every key read or stored is handed to the redactor so that it can never be logged.
 */
export class ApiKeyStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly redactor: Redactor,
  ) {}

  async get(baseUrl: string): Promise<string | undefined> {
    const key = await this.secrets.get(secretKeyFor(baseUrl));
    this.redactor.add(key);
    return key || undefined;
  }

  async set(baseUrl: string, key: string): Promise<void> {
    const clean = key.trim();
    this.redactor.add(clean);
    await this.secrets.store(secretKeyFor(baseUrl), clean);
  }

  async clear(baseUrl: string): Promise<boolean> {
    const had = (await this.secrets.get(secretKeyFor(baseUrl))) !== undefined;
    await this.secrets.delete(secretKeyFor(baseUrl));
    return had;
  }

  normalized(baseUrl: string): string {
    return normalizeBaseUrl(baseUrl);
  }
}
