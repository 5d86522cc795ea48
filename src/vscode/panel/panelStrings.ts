import * as vscode from 'vscode';
import { mapStrings } from '../../shared/guards';
import { PANEL_STRINGS, placeholderCount, type PanelStrings } from '../../shared/panelStrings';

/**
 * The panel's strings in the UI language. The English text is the l10n key (`l10n/bundle.l10n.<lang>.json`);
 * placeholders are passed through as `{0}`, `{1}` so the page can fill them in.
 */
export function localPanelStrings(): PanelStrings {
  return localStrings(PANEL_STRINGS);
}

/** English strings in the UI language, keyed as they are; `{0}`, `{1}` pass through for the page to fill in. */
export function localStrings<T extends Record<string, string>>(english: T): Record<keyof T, string> {
  return mapStrings(english, (text) => vscode.l10n.t(text, ...Array.from({ length: placeholderCount(text) }, (_, i) => `{${i}}`)));
}
