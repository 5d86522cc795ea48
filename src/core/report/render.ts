import type { NoiseSplit, ReviewSummary } from '../domain/result';
import { toCodeQuality } from './codeQuality';
import { toGithubAnnotations } from './githubAnnotations';
import { hiddenNote } from './hiddenNote';
import { toJsonOutput } from './json';
import { formatMarkdown, formatText } from './readable';
import { toSarif } from './sarif';
import { toStepSummary } from './stepSummary';
import { repeatsCount } from '../toolResults/repeats';

/**
 * Every report of a finished review, from one entry: plain text, Markdown, JSON, SARIF, GitHub annotations and
 * a GitLab Code Quality report
 * (`renderReport`), and the Markdown of a CI job's step summary (`renderStepSummary`). The face supplies the
 * paths as the repository names them, the reviewed files' lines (SARIF's fingerprints) and what the noise
 * controls hid; the renderers read nothing themselves. Beside them in this folder: the pull request poster's
 * bodies (pullRequest.ts, its markers and GitHub-safe Markdown) and the compact findings an agent reads
 * (compactFindings.ts).
 */

export const REPORT_FORMATS = ['text', 'markdown', 'json', 'sarif', 'github', 'codequality'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface ReportContext {
  /** Quorum's version (SARIF's tool). */
  version: string;
  /** A reviewed file's path as reports name it (relative to the repository root, forward slashes). */
  pathOf: (file: string) => string;
  /** A reviewed file's lines now, undefined when it cannot be read. */
  linesOf: (file: string) => readonly string[] | undefined;
  /** What the noise controls hid; hidden findings are left out unless `showHidden`. */
  noise?: { split: NoiseSplit; showHidden: boolean };
}

export function renderReport(all: ReviewSummary, format: ReportFormat, ctx: ReportContext): string {
  const hidden = ctx.noise?.split.hidden ?? [];
  const showHidden = ctx.noise?.showHidden === true;
  const hiddenIds = new Set(hidden.map((h) => h.finding.id));
  const summary = showHidden ? all : { ...all, findings: all.findings.filter((f) => !hiddenIds.has(f.id)) };
  const note = () => (ctx.noise ? hiddenNote(ctx.noise.split, showHidden) : '');
  // Counted over the whole review: hidden findings are left out of `summary` unless shown.
  const toolResultsHidden = ctx.noise ? hidden.filter((h) => h.reason === 'reported-by-tool').length : repeatsCount(all.findings);
  switch (format) {
    case 'json':
      return JSON.stringify(toJsonOutput(summary, { hiddenCount: hidden.length, toolResultsHidden, ...(showHidden ? { hidden: new Map(hidden.map((h) => [h.finding.id, h.reason])) } : {}) }), null, 2) + '\n';
    case 'markdown':
      // The whole review: the renderer leaves the hidden findings out or lists them apart, and counts them.
      return formatMarkdown(all, ctx.noise);
    case 'sarif':
      return JSON.stringify(toSarif(summary, { toolVersion: ctx.version, pathOf: ctx.pathOf, linesOf: ctx.linesOf }), null, 2) + '\n';
    case 'github':
      return toGithubAnnotations(summary, { pathOf: ctx.pathOf });
    case 'codequality':
      return JSON.stringify(toCodeQuality(summary, { pathOf: ctx.pathOf, linesOf: ctx.linesOf }), null, 2) + '\n';
    case 'text':
      return formatText(summary, toolResultsHidden) + note();
  }
}

export function renderStepSummary(summary: ReviewSummary, ctx: Pick<ReportContext, 'pathOf'>): string {
  return toStepSummary(summary, { pathOf: ctx.pathOf });
}
