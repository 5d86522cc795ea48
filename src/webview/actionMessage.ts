import type { ReviewView, WebviewToHost } from '../shared/protocol';
import type { FindingFilter } from '../shared/reviewReducer';
import type { PAGE_ACTIONS } from './dom';

/**
 * The message a click on a `data-action` element sends to the host: the element says which finding or agent;
 * the page's own state says the rest (the context snippet it lists, whether hidden findings are shown).
 */
export function actionMessage(action: (typeof PAGE_ACTIONS)[number], el: Element, review: ReviewView | null, filter: FindingFilter): WebviewToHost | undefined {
  const findingId = el.getAttribute('data-finding') ?? '';
  switch (action) {
    case 'stop': return { type: 'stop' };
    case 'rerun': return { type: 'rerun', noCache: el.getAttribute('data-nocache') === 'true' };
    case 'export': return { type: 'export', ...(filter.showHidden ? { showHidden: true } : {}) };
    case 'reveal':
    case 'previewFix':
    case 'applyFix':
    case 'dismiss':
    case 'dismissInProject': return { type: action, findingId };
    case 'previewImproved':
    case 'applyImproved':
    case 'copyImproved':
    case 'setApiKey': return { type: action };
    case 'openContext': {
      // The page names the snippet it lists; the host checks that the file is inside the workspace.
      const item = review?.context?.items[Number(el.getAttribute('data-index'))];
      return item ? { type: 'openContext', file: item.file, startLine: item.startLine, endLine: item.endLine } : undefined;
    }
    case 'switchModel': {
      const agent = el.getAttribute('data-agent');
      return agent ? { type: 'switchModel', agent } : { type: 'switchModel' };
    }
  }
}
