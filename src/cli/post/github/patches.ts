import type { LineRange } from '../../../core/domain/lines';
import { hunksOfPatch } from '../diffLines';
import type { PullFile } from './api';

/** The hunks of GitHub's patches (a file without a patch — binary, too large — has none). */
export function patchHunks(files: readonly PullFile[]): Map<string, LineRange[]> {
  const out = new Map<string, LineRange[]>();
  for (const f of files) {
    if (f.status === 'removed' || f.patch === undefined) continue;
    out.set(f.filename, hunksOfPatch(f.patch));
  }
  return out;
}
