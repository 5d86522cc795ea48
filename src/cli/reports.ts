import { readFileSync } from 'node:fs';
import { sep } from 'node:path';
import type { NoiseSplit } from '../core/domain/result';
import type { ReportContext } from '../core/report/render';
import { relativeToRoot } from './repository';
import { splitLines } from './target';

/** The CLI's side of the reports (core/report/render.ts): paths relative to the repository root, the files' lines as they are on disk. */
export function cliReportContext(o: { version: string; root: string; noise?: { split: NoiseSplit; showHidden: boolean } }): ReportContext {
  return {
    version: o.version,
    pathOf: (file) => relativeToRoot(o.root, file) ?? file.split(sep).join('/'),
    linesOf,
    ...(o.noise ? { noise: o.noise } : {}),
  };
}

function linesOf(file: string): readonly string[] | undefined {
  try {
    return splitLines(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
}
