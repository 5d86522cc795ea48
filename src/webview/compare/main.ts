import '../zodConfig';
import { compareToHostSchema, type CompareToHost } from '../../shared/compareProtocol';

/**
 * The Compare Models page's one script: the host renders the figures; a "Use for" button posts which model
 * to use. What is posted is checked against the same schema the host checks it with.
 */

interface CompareApi {
  postMessage(message: CompareToHost): void;
}

declare function acquireVsCodeApi(): CompareApi;

const api = acquireVsCodeApi();

document.addEventListener('click', (e) => {
  const el = e.target instanceof Element ? e.target.closest<HTMLButtonElement>('button[data-action="useModel"]') : null;
  if (!el || el.disabled) return;
  const message = compareToHostSchema.safeParse({ type: 'useModel', agent: el.dataset.agent ?? '', model: el.dataset.model ?? '' });
  if (message.success) api.postMessage(message.data);
  else api.postMessage({ type: 'log', level: 'warn', message: 'a Use button carried no valid agent and model' });
});
