import type { ReviewView, WebviewToHost } from '../../shared/protocol';
import { Commands, InternalCommands } from '../commands';

/** The page's messages that the panel answers itself: its life cycle, the export, the clipboard, links, its log. */
type PanelOwnMessage = 'ready' | 'resync' | 'export' | 'copyImproved' | 'openLink' | 'log';

/** A page's button pressed: one of the extension's commands runs it. */
export type PanelAction = Exclude<WebviewToHost, { type: PanelOwnMessage }>;
type ActionType = PanelAction['type'];
type ActionOf<K extends ActionType> = Extract<PanelAction, { type: K }>;

/** What the panel knows when its page asks: the review it follows (none once restored after a reload), its target, its view. */
export interface PanelState {
  readonly sessionId: string | undefined;
  readonly running: boolean;
  readonly targetKey: string;
  readonly view: ReviewView | null;
}

/** A command of the extension and the arguments it is given. */
interface CommandCall {
  command: string;
  args: unknown[];
}

/** A command about the panel's review (its id first), or none when the panel follows no review. */
function ofReview(panel: PanelState, command: string, ...args: unknown[]): CommandCall | undefined {
  return panel.sessionId ? { command, args: [panel.sessionId, ...args] } : undefined;
}

/**
 * Each button of the page and the command it runs: the same commands, with the same handlers, as the quick fixes,
 * the threads, the chat's buttons and the palette (so a panel's Dismiss is the quick fix's Dismiss).
 */
const ROUTES: { [K in ActionType]: (m: ActionOf<K>, panel: PanelState) => CommandCall | undefined } = {
  stop: (_m, panel) => (panel.running ? ofReview(panel, Commands.cancelReview) : undefined),
  rerun: (m, panel) => ({ command: InternalCommands.rerunReview, args: [panel.targetKey, { noCache: m.noCache }] }),
  reveal: (m, panel) => ofReview(panel, InternalCommands.revealFinding, m.findingId),
  previewFix: (m, panel) => ofReview(panel, InternalCommands.previewFix, m.findingId),
  applyFix: (m, panel) => ofReview(panel, InternalCommands.applyFix, m.findingId),
  dismiss: (m, panel) => ofReview(panel, InternalCommands.dismissFinding, m.findingId),
  dismissInProject: (m, panel) => ofReview(panel, InternalCommands.dismissInProject, m.findingId),
  previewImproved: (_m, panel) => ofReview(panel, InternalCommands.previewImprovedCode),
  applyImproved: (_m, panel) => ofReview(panel, InternalCommands.applyImprovedCode),
  setApiKey: () => ({ command: Commands.setApiKey, args: [] }),
  // An unknown model's card offers the gateway's closest ids first in the picker.
  switchModel: (m, panel) => {
    const card = m.agent === undefined ? undefined : panel.view?.agents.find((a) => a.agent === m.agent);
    return { command: Commands.switchModel, args: [m.agent, card?.outcome?.error?.suggestions] };
  },
  // The root is the host's own (the view it built); the page names only the file and lines, checked by the command.
  openContext: (m, panel) => ({ command: InternalCommands.openContext, args: [panel.view?.context?.root, m.file, m.startLine, m.endLine] }),
};

/** The command a page's button runs, or undefined when it has nothing to act on (a finding of a restored review, Stop once done). */
export function panelCommand<K extends ActionType>(m: ActionOf<K>, panel: PanelState): CommandCall | undefined {
  const route: (m: ActionOf<K>, panel: PanelState) => CommandCall | undefined = ROUTES[m.type];
  return route(m, panel);
}
