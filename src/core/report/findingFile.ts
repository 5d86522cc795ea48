import type { Finding, ReviewSummary } from '../review/types';

/** The file a finding is in: its own `file` when the review spans files, else the reviewed file. */
export function findingFile(summary: Pick<ReviewSummary, 'target'>, f: Finding): string {
  return 'file' in f && typeof f.file === 'string' && f.file !== '' ? f.file : summary.target.file;
}
