import './zodConfig';
import { hostToWebviewSchema, type WebviewToHost } from '../shared/protocol';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const app = document.getElementById('app');

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = hostToWebviewSchema.safeParse(event.data);
  if (!parsed.success) return;
  if (app) app.setAttribute('aria-busy', 'false');
});

vscode.postMessage({ type: 'ready' });
