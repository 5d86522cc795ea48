import { PANEL_STRINGS, translator } from '../../shared/panelStrings';

/**
 * The panel's English strings, with the agent states in the CLI's words (as its text output and JSON say them),
 * clamped lines said without a selection, and the noise controls named by their flags.
 */
export const REPORT_STRINGS = {
  ...PANEL_STRINGS, stateDone: 'ok', stateFailed: 'failed', stateCancelled: 'cancelled', stateCached: 'cached', clamped: 'lines clamped',
  hiddenConfidence: 'hidden: below --min-confidence', hiddenSeverity: 'hidden: below --min-severity',
  exportHiddenConfidence: '{0} below --min-confidence', exportHiddenSeverity: '{0} below --min-severity',
  exportHiddenLeftOut: '{0} hidden ({1}); --show-hidden lists them',
  exportHiddenListed: '{0} hidden ({1}); listed under Hidden findings, never counted for --fail-on',
  verifierNoOtherModel: 'not checked: the gateway has no model but {0}, which raised these findings (--verify same-model checks them on it)',
};

/** A string of REPORT_STRINGS by its key, filled in: the panel's words as the command line says them. */
export const reportWords = translator(REPORT_STRINGS);
