import type * as vscode from 'vscode';
import * as z from 'zod/mini';
import { reviewViewSchema, type ReviewView } from '../../shared/protocol';

const KEY = 'quorum.panel.reviews';
const MAX_REVIEWS = 10;
const MAX_TEXT = 50_000;

const storedSchema = z.array(reviewViewSchema);

/**
 * The last few reviews, per workspace, so that a panel restored after a reload (WebviewPanelSerializer)
 * shows the review it showed before. Stored views are marked not live; long answers are cut.
 */
export class PanelStore {
  constructor(private readonly memento: vscode.Memento) {}

  get(targetKey: string): ReviewView | undefined {
    return this.all().find((v) => v.targetKey === targetKey);
  }

  async save(view: ReviewView): Promise<void> {
    const stored: ReviewView = {
      ...structuredClone(view),
      live: false,
    };
    for (const a of stored.agents) {
      if (a.text.length > MAX_TEXT) a.text = a.text.slice(0, MAX_TEXT);
      if (a.outcome && a.outcome.text.length > MAX_TEXT) a.outcome.text = a.outcome.text.slice(0, MAX_TEXT);
      // A review that was interrupted by the reload is not running any more.
      if (a.state === 'queued' || a.state === 'running') a.state = 'cancelled';
    }
    if (stored.status === 'running') stored.status = 'cancelled';
    const rest = this.all().filter((v) => v.targetKey !== view.targetKey);
    await this.memento.update(KEY, [stored, ...rest].slice(0, MAX_REVIEWS));
  }

  private all(): ReviewView[] {
    const parsed = storedSchema.safeParse(this.memento.get(KEY, []));
    return parsed.success ? parsed.data : [];
  }
}
