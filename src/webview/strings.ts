import { PANEL_STRINGS, formatString, type PanelStringKey } from '../shared/panelStrings';

let current: Readonly<Record<string, string>> = {};

/** Installs the strings the host localised (missing ones fall back to English). */
export function setStrings(strings: Readonly<Record<string, string>>): void {
  current = strings;
}

export function t(key: PanelStringKey, ...args: (string | number)[]): string {
  return formatString(current[key] ?? PANEL_STRINGS[key], args);
}
