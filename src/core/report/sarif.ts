import type { Log, Notification, Region, ReportingDescriptor, Result } from 'sarif';
import type { Finding } from '../domain/finding';
import type { ReviewSummary } from '../domain/result';
import { CWE_ID } from '../../shared/finding';
import { escapeInline, fence } from '../../shared/untrustedText';
import { FingerprintCounter, lineHash } from './fingerprint';
import { findingFile } from './findingFile';
import { compareSeverity, severityLevel } from '../../shared/severity';
import { isSecurityFinding, securitySeverity } from './levels';
import { pathToUriReference } from './repoPath';
import { ruleIdOf } from './ruleId';

/**
 * A review as SARIF 2.1.0 for code scanning (GitHub, GitLab, Azure DevOps): one rule per kind of finding, one
 * result per finding with a location relative to the repository root (`%SRCROOT%`), a fingerprint that survives
 * line shifts, and the agents and confidence in `properties`. Failed agents are tool execution notifications,
 * and `executionSuccessful` is false then, so a partial review does not look like a clean one.
 */

const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const CONTEXT_LINES = 2;

export interface SarifOptions {
  toolVersion: string;
  /** Where to read about the tool (the project's home page); left out while the project publishes none. */
  informationUri?: string;
  /** A finding's file relative to the repository root, forward slashes (`src/a.ts`). */
  pathOf: (file: string) => string;
  /** The file's lines (index 0 is line 1), for fingerprints; undefined when it cannot be read. */
  linesOf: (file: string) => readonly string[] | undefined;
}

const cweNumber = (cwe: string | undefined) => (cwe && CWE_ID.test(cwe) ? cwe.slice(4) : undefined);

function rule(id: string, f: Finding, maxSeverity: Finding['severity']): ReportingDescriptor {
  const security = isSecurityFinding(f);
  const n = cweNumber(f.cwe);
  const tags = [...new Set(['quorum', ...f.agents.slice(0, 1), ...(security ? ['security'] : []), ...(n ? [`external/cwe/cwe-${n}`] : [])])];
  const explanation = f.explanation.trim() || f.title;
  const helpText = [explanation, ...(f.suggestion !== undefined ? ['Suggested replacement:', f.suggestion] : [])].join('\n\n');
  const helpMarkdown = [escapeInline(explanation), ...(f.suggestion !== undefined ? ['Suggested replacement:', fence(f.suggestion)] : [])].join('\n\n');
  return {
    id,
    name: pascalCase(id.split('/').slice(1).join(' ')),
    shortDescription: { text: sentence(f.cwe ? `${f.cwe}: ${f.title}` : f.title) },
    fullDescription: { text: sentence(explanation) },
    help: { text: helpText, markdown: helpMarkdown },
    ...(n ? { helpUri: `https://cwe.mitre.org/data/definitions/${n}.html` } : {}),
    defaultConfiguration: { level: severityLevel(maxSeverity) },
    properties: {
      tags,
      ...(security ? { 'security-severity': securitySeverity(maxSeverity).toFixed(1) } : {}),
      precision: 'medium',
    },
  };
}

/** `security CWE-89` → `SecurityCwe89`: rule names are Pascal-case identifiers (SARIF2012). */
function pascalCase(text: string): string {
  return text.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => `${w.charAt(0).toUpperCase()}${w.slice(1).toLowerCase()}`).join('') || 'Finding';
}

/** The region's lines and a few around them, as SARIF snippets, when the file's text is known. */
function regions(lines: readonly string[] | undefined, startLine: number, endLine: number): { region: Region; contextRegion?: Region } {
  const region: Region = { startLine, endLine };
  if (!lines || endLine > lines.length) return { region };
  const from = Math.max(1, startLine - CONTEXT_LINES);
  const to = Math.min(lines.length, endLine + CONTEXT_LINES);
  return {
    region: { ...region, snippet: { text: lines.slice(startLine - 1, endLine).join('\n') } },
    contextRegion: { startLine: from, endLine: to, snippet: { text: lines.slice(from - 1, to).join('\n') } },
  };
}

/** SARIF messages are sentences: they end with a period (SARIF2001). */
function sentence(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return /[.!?。]$/.test(t) ? t : `${t}.`;
}

type RuleSeen = { index: number; first: Finding; severity: Finding['severity'] };

/** One rule per rule id, in order of first use, at the highest severity of its findings. */
function rulesOf(summary: ReviewSummary): Map<string, RuleSeen> {
  const rules = new Map<string, RuleSeen>();
  for (const f of summary.findings) {
    const id = ruleIdOf(f);
    const known = rules.get(id);
    if (!known) rules.set(id, { index: rules.size, first: f, severity: f.severity });
    else if (compareSeverity(f.severity, known.severity) < 0) known.severity = f.severity;
  }
  return rules;
}

/** What a finding's result needs besides the finding: the rules, the fingerprint counter, each file's lines (read once). */
interface ResultContext {
  summary: ReviewSummary;
  options: SarifOptions;
  rules: ReadonlyMap<string, RuleSeen>;
  counter: FingerprintCounter;
  linesOf: (file: string) => readonly string[] | undefined;
}

function resultOf(f: Finding, { summary, options, rules, counter, linesOf }: ResultContext): Result {
  const id = ruleIdOf(f);
  const file = findingFile(summary, f);
  const path = options.pathOf(file);
  const ref = pathToUriReference(path);
  const lines = linesOf(file);
  const hash = lineHash(id, lines, f.startLine, f.endLine, f.title);
  const explanation = f.explanation.trim();
  return {
    ruleId: id,
    ruleIndex: rules.get(id)?.index ?? 0,
    level: severityLevel(f.severity),
    message: { text: sentence(explanation ? `${f.title}: ${explanation}` : f.title) },
    locations: [{
      physicalLocation: {
        artifactLocation: ref.relative ? { uri: ref.uri, uriBaseId: '%SRCROOT%' } : { uri: ref.uri },
        ...regions(lines, f.startLine, f.endLine),
      },
    }],
    partialFingerprints: { primaryLocationLineHash: counter.next(path, hash) },
    properties: {
      severity: f.severity,
      agents: [...f.agents],
      confidence: f.confidence,
      ...(f.cwe ? { cwe: f.cwe } : {}),
      ...(f.clamped ? { clamped: true } : {}),
    },
  };
}

/** An agent that failed or was cancelled, as a notification of the invocation. */
function agentFailures(summary: ReviewSummary): Notification[] {
  return summary.agents
    .filter((a) => a.status === 'error' || a.status === 'cancelled')
    .map((a) => ({
      level: a.status === 'error' ? 'error' : 'warning',
      message: { text: sentence(`Agent ${a.agent} (${a.model}) ${a.status === 'error' ? 'failed' : 'was cancelled'}: ${a.error?.code ?? a.status}${a.error?.message ? ` - ${a.error.message}` : ''}`) },
      descriptor: { id: `quorum/agent-${a.status === 'error' ? 'failed' : 'cancelled'}` },
      properties: { agent: a.agent, model: a.model, code: a.error?.code ?? a.status },
    }));
}

export function toSarif(summary: ReviewSummary, options: SarifOptions): Log {
  const rules = rulesOf(summary);
  const linesCache = new Map<string, readonly string[] | undefined>();
  const linesOf = (file: string) => {
    if (!linesCache.has(file)) linesCache.set(file, options.linesOf(file));
    return linesCache.get(file);
  };
  const context: ResultContext = { summary, options, rules, counter: new FingerprintCounter(), linesOf };
  const results = summary.findings.map((f) => resultOf(f, context));
  const failures = agentFailures(summary);
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [{
      tool: {
        driver: {
          name: 'Quorum',
          fullName: 'Quorum multi-agent code review',
          version: options.toolVersion,
          semanticVersion: options.toolVersion,
          ...(options.informationUri ? { informationUri: options.informationUri } : {}),
          rules: [...rules.entries()].map(([id, r]) => rule(id, r.first, r.severity)),
        },
      },
      invocations: [{
        executionSuccessful: failures.length === 0,
        ...(failures.length > 0 ? { toolExecutionNotifications: failures } : {}),
      }],
      results,
      columnKind: 'utf16CodeUnits',
      properties: {
        costUsd: summary.totals.costUsd,
        requests: summary.totals.requests,
        agents: summary.agents.map((a) => ({ id: a.agent, model: a.model, status: a.status, cached: a.cached, costUsd: a.costUsd })),
      },
    }],
  };
}
