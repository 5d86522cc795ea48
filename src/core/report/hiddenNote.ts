import type { NoiseSplit } from '../domain/result';
import { hiddenByReason } from '../../shared/reviewMarkdown';
import { REPORT_STRINGS } from './reportStrings';

/** The line under a text review that says how many findings the noise controls hid, and why. */
export function hiddenNote(noise: NoiseSplit, showHidden: boolean): string {
  const n = noise.hidden.length;
  if (n === 0) return '';
  const reasons = hiddenByReason(REPORT_STRINGS, noise.hidden.map((h) => h.reason));
  const text = `${n} finding${n === 1 ? '' : 's'} hidden (${reasons})${showHidden ? '; listed above, never counted for --fail-on' : '; --show-hidden lists them'}`;
  return `${text}\n`;
}
