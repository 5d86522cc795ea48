import { readFileSync } from 'node:fs';
import { sep } from 'node:path';
import { repository } from '../../package.json';
import { toGithubAnnotations } from '../core/report/githubAnnotations';
import { toSarif } from '../core/report/sarif';
import { toStepSummary } from '../core/report/stepSummary';
import type { ReviewSummary } from '../core/review/types';
import type { OutputFormat } from './args';
import { formatMarkdown, formatText } from './format';
import { toJsonOutput } from './jsonOutput';
import { relativeToRoot } from './repository';
import { splitLines } from './target';

/** The CLI's side of the renderers: paths relative to the repository root, the files' lines, the version. */
export interface ReportContext {
  version: string;
  /** The repository root (or the working directory outside a repository). */
  root: string;
}

/** The project's home page, for SARIF's `informationUri`: the package's repository without `.git`. */
export const INFORMATION_URI = repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

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

export function renderReport(summary: ReviewSummary, format: OutputFormat, ctx: ReportContext): string {
  switch (format) {
    case 'json':
      return JSON.stringify(toJsonOutput(summary), null, 2) + '\n';
    case 'markdown':
      return formatMarkdown(summary);
    case 'sarif':
      return JSON.stringify(toSarif(summary, { toolVersion: ctx.version, informationUri: INFORMATION_URI, pathOf: pathOf(ctx.root), linesOf }), null, 2) + '\n';
    case 'github':
      return toGithubAnnotations(summary, { pathOf: pathOf(ctx.root) });
    case 'text':
      return formatText(summary);
  }
}

export function renderStepSummary(summary: ReviewSummary, ctx: ReportContext): string {
  return toStepSummary(summary, { pathOf: pathOf(ctx.root) });
}
