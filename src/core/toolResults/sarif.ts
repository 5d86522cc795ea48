import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sarifLogSchema, type SarifResult, type SarifRule, type SarifRun } from './sarifSchema';
import { toolName, type ToolResult, type ToolResultLevel } from '../domain/toolResult';

/**
 * Reading tool results from a SARIF 2.1.0 file (what ESLint's `@microsoft/eslint-formatter-sarif`, `ruff check
 * --output-format sarif`, `semgrep --sarif`, CodeQL, Bandit, golangci-lint and tsc through a SARIF formatter write):
 * validated with `sarifLogSchema`; a bad file is one line (`problem`) and gives no result, so the review goes on
 * without it. Paths come out relative to `root` with forward slashes; results outside it, suppressed results
 * (`// eslint-disable`, `nosemgrep`) and results that are not problems (`kind` pass, informational…) are left out.
 */

/** A SARIF file larger than this is not read. */
const MAX_SARIF_BYTES = 50 * 1024 * 1024;
const MAX_MESSAGE = 600;

type SarifRead = { ok: true; results: ToolResult[] } | { ok: false; problem: string };

/** Reads and parses a SARIF file; `name` is how the file is called in its problem line. */
export async function readSarifFile(path: string, root: string, name = path): Promise<SarifRead> {
  let raw: string;
  try {
    const info = await stat(path);
    if (!info.isFile()) return { ok: false, problem: `${name}: not a file` };
    if (info.size > MAX_SARIF_BYTES) return { ok: false, problem: `${name}: larger than ${MAX_SARIF_BYTES / 1024 / 1024} MB, not read` };
    raw = await readFile(path, 'utf8');
  } catch (e) {
    return { ok: false, problem: `${name}: cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  return parseSarif(raw, root, name);
}

export function parseSarif(raw: string, root: string, name: string): SarifRead {
  let json: unknown;
  try {
    json = JSON.parse(raw.replace(/^\uFEFF/, ''));
  } catch {
    return { ok: false, problem: `${name}: not JSON (is it a SARIF file?)` };
  }
  const parsed = sarifLogSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, problem: `${name}: not SARIF 2.1.0: ${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}` };
  }
  const results: ToolResult[] = [];
  for (const run of parsed.data.runs) for (const r of run.results ?? []) {
    const one = resultOf(run, r, root);
    if (one) results.push(one);
  }
  return { ok: true, results };
}

/** The rule a result names: by `rule.index` in its tool component, by `ruleIndex`, else by id among the driver's rules. */
function ruleOf(run: SarifRun, r: SarifResult, id: string | undefined): SarifRule | undefined {
  const component = r.rule?.toolComponent?.index;
  const rules = (component !== undefined && component !== null && component >= 0 ? run.tool.extensions?.[component]?.rules : run.tool.driver.rules) ?? [];
  const index = r.rule?.index ?? r.ruleIndex;
  const byIndex = index !== undefined && index !== null && index >= 0 ? rules[index] : undefined;
  if (byIndex && (id === undefined || byIndex.id === id)) return byIndex;
  return id !== undefined ? (rules.find((x) => x.id === id) ?? run.tool.extensions?.flatMap((e) => e.rules ?? []).find((x) => x.id === id)) : byIndex;
}

/** SARIF §3.27.10: `level` defaults to the rule's configured level, else `warning`; `none` is at most a note. */
function levelOf(r: SarifResult, rule: SarifRule | undefined): ToolResultLevel {
  const level = r.level ?? rule?.defaultConfiguration?.level ?? 'warning';
  return level === 'error' ? 'error' : level === 'warning' ? 'warning' : 'note';
}

/** The text of a result's message: its text, else its rule's message string with the arguments, else the rule's description. */
function messageOf(r: SarifResult, rule: SarifRule | undefined): string {
  let text = r.message.text ?? undefined;
  if (!text && r.message.id) {
    const template = rule?.messageStrings?.[r.message.id]?.text ?? '';
    const args = r.message.arguments ?? [];
    text = template.replace(/\{(\d+)\}/g, (_, n: string) => args[Number(n)] ?? '');
  }
  text ||= rule?.shortDescription?.text ?? rule?.name ?? '';
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_MESSAGE ? `${flat.slice(0, MAX_MESSAGE - 1)}…` : flat;
}

/** `CWE-89` from the tags tools write: `CWE-89`, `CWE-89: Improper …` (Semgrep), `external/cwe/cwe-089` (CodeQL). */
function cwesOf(...bags: (SarifRule['properties'] | undefined)[]): string[] {
  const out = new Set<string>();
  for (const bag of bags) {
    const cwe: unknown = bag?.cwe;
    const listed: readonly unknown[] = Array.isArray(cwe) ? cwe : [cwe];
    const values = [...(bag?.tags ?? []), ...listed];
    for (const v of values) {
      const m = typeof v === 'string' ? /^(?:external\/cwe\/)?cwe-0*(\d{1,5})\b/i.exec(v.trim()) : typeof v === 'number' ? [String(v), String(v)] : null;
      if (m?.[1]) out.add(`CWE-${Number(m[1])}`);
    }
  }
  return [...out].slice(0, 20);
}

/** A result's file relative to `root` (forward slashes); undefined when it has none or it is outside `root`. */
function fileOf(run: SarifRun, r: SarifResult, root: string): string | undefined {
  const at = r.locations?.[0]?.physicalLocation?.artifactLocation;
  const index = at?.index;
  const loc = at?.uri ? at : index !== undefined && index !== null && index >= 0 ? run.artifacts?.[index]?.location : undefined;
  if (!loc?.uri) return undefined;
  let path: string;
  try {
    if (/^file:/i.test(loc.uri)) path = fileURLToPath(loc.uri);
    else if (/^[a-z][a-z0-9+.-]+:/i.test(loc.uri)) return undefined;
    else {
      // SARIF §3.14.14: a base is an absolute file URI, or relative to the root (the folder the tool ran in).
      const base = loc.uriBaseId ? run.originalUriBaseIds?.[loc.uriBaseId]?.uri : undefined;
      const from = !base ? root : /^file:/i.test(base) ? fileURLToPath(base.endsWith('/') ? base : `${base}/`) : resolve(root, decodeURIComponent(base));
      path = resolve(from, decodeURIComponent(loc.uri));
    }
  } catch {
    return undefined;
  }
  const rel = relative(root, path);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.replace(/\\/g, '/');
}

/** SARIF §3.27.9: only `fail` (the default), `review` and `open` results are problems; an accepted suppression hides one. */
function isProblem(r: SarifResult): boolean {
  if (r.kind && !['fail', 'review', 'open'].includes(r.kind)) return false;
  return !(r.suppressions ?? []).some((s) => s.status !== 'rejected' && s.status !== 'underReview');
}

function resultOf(run: SarifRun, r: SarifResult, root: string): ToolResult | undefined {
  if (!isProblem(r)) return undefined;
  const file = fileOf(run, r, root);
  if (!file) return undefined;
  const id = r.ruleId ?? r.rule?.id ?? undefined;
  const rule = ruleOf(run, r, id);
  const region = r.locations?.[0]?.physicalLocation?.region;
  // No region (ESLint's file-level messages): the file's first line; a region in bytes only has no line to match.
  if (region && (region.startLine === undefined || region.startLine === null)) return undefined;
  const startLine = region?.startLine ?? 1;
  const endLine = Math.max(startLine, region?.endLine ?? startLine);
  const cwe = cwesOf(rule?.properties, r.properties);
  return {
    tool: toolName(run.tool.driver.name),
    rule: (id ?? rule?.id ?? '').slice(0, 200),
    severity: levelOf(r, rule),
    file,
    startLine,
    endLine,
    message: messageOf(r, rule),
    ...(cwe.length > 0 ? { cwe } : {}),
  };
}
