import type { Finding } from '../domain/finding';
import type { ReviewSummary } from '../domain/result';

/** The file a finding is in: its own `file`, else the reviewed file (the first region's). */
export function findingFile(summary: Pick<ReviewSummary, 'target'>, f: Finding): string {
  return f.file !== '' ? f.file : (summary.target.regions[0]?.file ?? '');
}
