import type { ReviewSummary } from '../domain/result';
import { findingFile } from './findingFile';
import { severityLevel, type SeverityLevel } from '../../shared/severity';

/**
 * A review as GitHub Actions workflow commands (`::error file=…,line=…,endLine=…,title=…::message`), which the
 * runner turns into annotations on the pull request's lines. Escaped exactly as @actions/core escapes them, so
 * model text can neither end a command early nor start a new one. A step shows at most 10 annotations of each
 * level: the rest are counted in one closing notice (itself the 10th notice when notices are full).
 */

const ANNOTATIONS_PER_LEVEL = 10;

type Command = 'error' | 'warning' | 'notice';
const COMMAND: Record<SeverityLevel, Command> = { error: 'error', warning: 'warning', note: 'notice' };

/** @actions/core `escapeData`: the message of a command. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** @actions/core `escapeProperty`: a property value of a command. */
export function escapeProperty(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One workflow command line, as @actions/core's `issueCommand` writes it. */
export function workflowCommand(command: string, properties: Record<string, string | number | undefined>, message: string): string {
  const props = Object.entries(properties)
    .filter((e): e is [string, string | number] => e[1] !== undefined && e[1] !== '')
    .map(([k, v]) => `${k}=${escapeProperty(String(v))}`)
    .join(',');
  return `::${command}${props ? ` ${props}` : ''}::${escapeData(message)}`;
}

interface Annotation {
  command: Command;
  line: string;
}

interface GithubAnnotationsOptions {
  /** A finding's file relative to the repository root (the workspace), forward slashes. */
  pathOf: (file: string) => string;
}

export function toGithubAnnotations(summary: ReviewSummary, options: GithubAnnotationsOptions): string {
  const all: Annotation[] = [];
  for (const a of summary.agents) {
    if (a.status !== 'error') continue;
    const message = `${a.agent} (${a.model}) failed: ${a.error?.code ?? 'error'}${a.error?.message ? ` - ${a.error.message}` : ''}`;
    all.push({ command: 'error', line: workflowCommand('error', { title: `Quorum: ${a.agent} failed` }, message) });
  }
  for (const f of summary.findings) {
    const command = COMMAND[severityLevel(f.severity)];
    const details = [
      f.explanation.trim(),
      f.suggestion !== undefined ? `Suggested replacement:\n${f.suggestion}` : '',
      `${f.agents.join(', ')} · confidence ${Math.round(f.confidence * 100)}%${f.cwe ? ` · ${f.cwe}` : ''}`,
    ].filter(Boolean).join('\n\n');
    all.push({
      command,
      line: workflowCommand(command, {
        file: options.pathOf(findingFile(summary, f)),
        line: f.startLine,
        endLine: f.endLine,
        title: `[${f.severity}] ${f.title}`,
      }, details),
    });
  }
  const shown = pick(all, ANNOTATIONS_PER_LEVEL);
  const hidden = all.length - shown.length;
  if (hidden === 0) return shown.map((a) => a.line).join('\n') + (shown.length ? '\n' : '');
  // Room for the closing notice: it is a notice too.
  const kept = pick(all, ANNOTATIONS_PER_LEVEL, ANNOTATIONS_PER_LEVEL - 1);
  const count = (c: Command) => all.filter((a) => a.command === c).length - kept.filter((a) => a.command === c).length;
  const parts = (['error', 'warning', 'notice'] as const).map((c) => [c, count(c)] as const).filter(([, n]) => n > 0).map(([c, n]) => `${n} ${c}${n === 1 ? '' : 's'}`);
  const rest = all.length - kept.length;
  const note = workflowCommand('notice', { title: 'Quorum: more findings' }, `${rest} more finding${rest === 1 ? ' is' : 's are'} not annotated (${parts.join(', ')}): a step shows at most ${ANNOTATIONS_PER_LEVEL} annotations of each level. See the job summary or the SARIF report for all ${summary.findings.length}.`);
  return [...kept.map((a) => a.line), note].join('\n') + '\n';
}

/** The first `cap` annotations of each level (most severe findings come first), in their order. */
function pick(all: readonly Annotation[], cap: number, noticeCap = cap): Annotation[] {
  const used: Record<Command, number> = { error: 0, warning: 0, notice: 0 };
  return all.filter((a) => {
    const limit = a.command === 'notice' ? noticeCap : cap;
    if (used[a.command] >= limit) return false;
    used[a.command] += 1;
    return true;
  });
}
