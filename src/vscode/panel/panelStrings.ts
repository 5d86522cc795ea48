import * as vscode from 'vscode';
import { PANEL_STRINGS, placeholderCount, type PanelStringKey, type PanelStrings } from '../../shared/panelStrings';

/**
 * The panel's strings in the UI language. The English text is the l10n key (`l10n/bundle.l10n.<lang>.json`);
 * placeholders are passed through as `{0}`, `{1}` so the page can fill them in.
 */
export function localPanelStrings(): PanelStrings {
  const out = {} as PanelStrings;
  for (const key of Object.keys(PANEL_STRINGS) as PanelStringKey[]) {
    const english = PANEL_STRINGS[key];
    const keep = Array.from({ length: placeholderCount(english) }, (_, i) => `{${i}}`);
    out[key] = vscode.l10n.t(english, ...keep);
  }
  return out;
}
