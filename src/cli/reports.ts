import { readFileSync } from 'node:fs';
import { sep } from 'node:path';
import { toGithubAnnotations } from '../core/report/githubAnnotations';
import { toSarif } from '../core/report/sarif';
import { toStepSummary } from '../core/report/stepSummary';
import type { ReviewSummary } from '../core/review/types';
import type { OutputFormat } from './args';
import { formatMarkdown, formatText } from './format';
import { toJsonOutput } from './jsonOutput';
import { relativeToRoot } from './repository';
import { splitLines } from './target';
import { hiddenNote } from './noise';
import type { NoiseSplit } from '../core/review/noise';

/** The CLI's side of the renderers: paths relative to the repository root, the files' lines, the version. */
export interface ReportContext {
  version: string;
  /** The repository root (or the working directory outside a repository). */
  root: string;
  /** What the noise controls hid; hidden findings are left out unless `showHidden`. */
  noise?: { split: NoiseSplit; showHidden: boolean };
}


function pathOf(root: string) {
  return (file: string) => relativeToRoot(root, file) ?? file.split(sep).join('/');
}

function linesOf(file: string): readonly string[] | undefined {
  try {
    return splitLines(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
}

export function renderReport(all: ReviewSummary, format: OutputFormat, ctx: ReportContext): string {
  const hidden = ctx.noise?.split.hidden ?? [];
  const showHidden = ctx.noise?.showHidden === true;
  const hiddenIds = new Set(hidden.map((h) => h.finding.id));
  const summary = showHidden ? all : { ...all, findings: all.findings.filter((f) => !hiddenIds.has(f.id)) };
  const note = () => (ctx.noise ? hiddenNote(ctx.noise.split, showHidden) : '');
  switch (format) {
    case 'json':
      return JSON.stringify(toJsonOutput(summary, { hiddenCount: hidden.length, ...(showHidden ? { hidden: new Map(hidden.map((h) => [h.finding.id, h.reason])) } : {}) }), null, 2) + '\n';
    case 'markdown':
      // The whole review: the renderer leaves the hidden findings out or lists them apart, and counts them.
      return formatMarkdown(all, ctx.noise);
    case 'sarif':
      return JSON.stringify(toSarif(summary, { toolVersion: ctx.version, pathOf: pathOf(ctx.root), linesOf }), null, 2) + '\n';
    case 'github':
      return toGithubAnnotations(summary, { pathOf: pathOf(ctx.root) });
    case 'text':
      return formatText(summary) + note();
  }
}

export function renderStepSummary(summary: ReviewSummary, ctx: ReportContext): string {
  return toStepSummary(summary, { pathOf: pathOf(ctx.root) });
}
