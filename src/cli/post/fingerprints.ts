import { createHash } from 'node:crypto';
import { fingerprintsOf } from '../../core/review/dismissed';
import { regionOf } from '../../core/review/noise';
import type { Finding, Region } from '../../core/review/types';

/**
 * A finding's keys in comment markers: one per agent that raised it, each a digest of the same fingerprint
 * `.quorum/dismissed.json` uses (agent, rule, normalised code of its lines). A finding is known to a pull request
 * when any of its keys is in a Quorum comment there, so a merge that adds or drops an agent still matches.
 */
export function findingKeys(f: Finding, regions: readonly Pick<Region, 'file' | 'text' | 'startLine' | 'endLine'>[]): string[] {
  const region = regionOf(f, regions);
  const prints = fingerprintsOf(f, region?.text ?? '', region?.startLine ?? f.startLine);
  return [...new Set(prints.map((p) => createHash('sha256').update(`${p.agent}\0${p.rule}\0${p.code}`).digest('hex').slice(0, 24)))];
}
