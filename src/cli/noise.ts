import type { NoiseSplit } from '../core/review/noise';

/** The line under a text review that says how many findings the noise controls hid, and why. */
export function hiddenNote(noise: NoiseSplit, showHidden: boolean): string {
  const n = noise.hidden.length;
  if (n === 0) return '';
  const count = (reason: string) => noise.hidden.filter((h) => h.reason === reason).length;
  const parts = [
    count('confidence') > 0 ? `${count('confidence')} below --min-confidence` : '',
    count('severity') > 0 ? `${count('severity')} below --min-severity` : '',
    count('dismissed') > 0 ? `${count('dismissed')} dismissed in this project` : '',
  ].filter(Boolean);
  const text = `${n} finding${n === 1 ? '' : 's'} hidden (${parts.join(', ')})${showHidden ? '; listed above, never counted for --fail-on' : '; --show-hidden lists them'}`;
  return `${text}\n`;
}
