import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { resolveAgents, selectAgents } from '../agents/registry';
import { VERIFIER_PROMPT_VERSION } from '../verification/verifier';
import type { ChangesPlan } from '../changes/plan';
import { agentRules } from '../prompt/shape';
import type { QuorumSettings } from '../settings/schema';
import { scrubKey } from '../redaction/redactor';
import { mergeFindings, titleSimilarity } from '../domain/merge';
import { type Finding, findingSchema } from '../domain/finding';
import type { Region } from '../domain/target';
import type { ReviewOptions } from '../pipeline/options';
import { reviewComplete, type ReviewSummary } from '../domain/result';

/**
 * Memory of reviewed regions, so that a re-review of changes sends only what changed. A region is known by its
 * content — its file, its code, the change marks and removed lines, its context, and the review's version (each
 * agent's model, prompt and rules, the language, verification) — not by its line numbers: lines added above it
 * move it, and its findings move with it. A region whose content is known is not sent again: its findings are
 * carried over at $0, marked `carried`. A region that changed is reviewed afresh; the findings the last review
 * had in that file that are not raised again count as resolved.
 *
 * Stored per repository in `<cache folder>/memory-v1/<hash of the root>.json`: hashes, lines and findings (model
 * text, with the key scrubbed), never the code.
 */

const MEMORY_FOLDER = 'memory-v1';
/** Regions remembered per repository; the least recently reviewed go first. */
const MAX_REGIONS = 5_000;
/** Titles this similar (merge.ts's measure) name the same finding when deciding what was resolved. */
const SAME_TITLE = 0.6;


const recordSchema = z.object({
  file: z.string().max(4000),
  startLine: z.number().int().positive(),
  endLine: z.number().int().positive(),
  findings: z.array(findingSchema).max(500),
  reviewedAt: z.number(),
});
type RegionRecord = z.infer<typeof recordSchema>;

const memorySchema = z.object({
  version: z.literal(1),
  regions: z.record(z.string().regex(/^[0-9a-f]{64}$/), recordSchema),
  /** Per file: the region keys of the last review that covered it. */
  files: z.record(z.string().max(4000), z.array(z.string().regex(/^[0-9a-f]{64}$/)).max(1000)),
});
type MemoryFile = z.infer<typeof memorySchema>;

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** The review's version: what makes the same code get a different review (agents, models, prompts, rules, language, verification). */
export function reviewVersion(configured: QuorumSettings, options: Pick<ReviewOptions, 'agents' | 'modelOverrides' | 'language' | 'prompt' | 'keepOutsideChanges'>): string {
  // The repository's own agents are among the custom agents, as planning has them.
  const projectAgents = options.prompt?.projectAgents ?? [];
  const settings = projectAgents.length > 0 ? { ...configured, customAgents: [...configured.customAgents, ...projectAgents] } : configured;
  const { agents } = selectAgents(resolveAgents(settings).agents, options.agents);
  const parts = agents.map((a) => [a.id, options.modelOverrides?.[a.id] ?? a.model, a.fallbackModel, a.promptVersion, agentRules(options.prompt, a.id).version, a.dependsOn.join('+')].join(':'));
  const verify = settings.review.verify === 'off' ? 'off' : [settings.review.verify, settings.review.verifyMinSeverity, settings.agents.verifier.model, VERIFIER_PROMPT_VERSION].join(':');
  return sha(JSON.stringify({ parts, language: options.language, verify, mode: settings.review.mode, outside: options.keepOutsideChanges === true, maxTokens: settings.review.maxOutputTokens }));
}

/** A region's content key: its file, code, change marks and removed lines relative to its first line, its context, the review's version. */
export function regionKey(region: Region & { context?: string }, version: string): string {
  const at = (n: number) => n - region.startLine;
  return sha(
    JSON.stringify({
      file: region.file,
      text: region.text,
      changed: (region.changedLines ?? []).map((c) => [at(c.start), at(c.end)]),
      removed: (region.removed ?? []).map((r) => [at(r.after), r.lines]),
      context: region.context ?? '',
      version,
    }),
  );
}

type Told = Pick<Finding, 'file' | 'agents' | 'cwe' | 'title'>;

/**
 * The re-review's rule for "raised again": a finding of this review in the same file, by the same agent or with the
 * same CWE, with a similar title or the same CWE. What is not raised again in a file reviewed afresh is resolved
 * (and, for the outcomes, addressed when its lines changed).
 */
export function raisedAgain(old: Told, findings: readonly Told[]): boolean {
  return findings.some((f) => f.file === old.file && (f.agents.some((a) => old.agents.includes(a)) || (old.cwe !== undefined && f.cwe === old.cwe)) && (titleSimilarity(f.title, old.title) >= SAME_TITLE || (old.cwe !== undefined && f.cwe === old.cwe)));
}

const inRegion = (f: Pick<Finding, 'file' | 'startLine' | 'endLine'>, r: Pick<Region, 'file' | 'startLine' | 'endLine'>) => f.file === r.file && f.startLine >= r.startLine && f.startLine <= r.endLine;

/** What a re-review takes from memory: the plan with only the regions to send, the findings carried, which regions are reused. */
export interface CarryOver {
  plan: ChangesPlan;
  /** Findings of the reused regions, moved to where the regions are now, marked `carried`. */
  carried: Finding[];
  /** Indexes into `plan.target.regions` of the reused regions. */
  reused: number[];
  /** The key of each region of the target, in order. */
  keys: string[];
}

/** A remembered finding where its region stands now. */
function moved(f: RegionRecord['findings'][number], by: number, n: number): Finding {
  return { ...f, id: `carried-${n}`, startLine: f.startLine + by, endLine: f.endLine + by, carried: true };
}

/**
 * Memory of reviewed regions for one repository, in a file of a cache folder. Reads once; `save` writes atomically.
 * A missing or invalid file is an empty memory.
 */
export class RegionMemory {
  private data: MemoryFile;
  private readonly path: string;
  private readonly secrets: string[];
  private readonly now: () => number;

  private readonly reuse: boolean;

  /** `reuse: false`: learn the regions of this review, carry nothing over (a fresh review; its Re-run reuses). */
  constructor(options: { dir: string; root: string; secrets?: readonly string[]; now?: () => number; reuse?: boolean }) {
    this.reuse = options.reuse ?? true;
    this.path = join(options.dir, MEMORY_FOLDER, `${sha(options.root).slice(0, 32)}.json`);
    this.secrets = (options.secrets ?? []).filter((s) => s.length > 0);
    this.now = options.now ?? Date.now;
    this.data = this.read();
  }

  private read(): MemoryFile {
    try {
      const parsed = memorySchema.safeParse(JSON.parse(readFileSync(this.path, 'utf8')));
      if (parsed.success) return parsed.data;
    } catch {
      // No memory yet, or an unreadable one: start afresh.
    }
    return { version: 1, regions: {}, files: {} };
  }

  /** The plan with the regions whose content was reviewed before left out of its batches; their findings carried. */
  carryOver(plan: ChangesPlan, version: string): CarryOver {
    // A region's context: the snippets the context step chose for its file (as sent with it).
    const contextOf = (file: string) => (plan.target.context ?? []).filter((s) => s.forFile === file).map((s) => `${s.file}:${s.startLine}\n${s.text}`).join('\n');
    const keys = plan.target.regions.map((r) => regionKey({ ...r, context: contextOf(r.file) }, version));
    const reused: number[] = [];
    const carried: Finding[] = [];
    plan.target.regions.forEach((region, i) => {
      const record = this.reuse ? this.data.regions[keys[i] ?? ''] : undefined;
      if (!record) return;
      reused.push(i);
      for (const f of record.findings) carried.push(moved(f, region.startLine - record.startLine, carried.length + 1));
    });
    const reusedKeys = new Set(reused.map((i) => keys[i]));
    const keyOf = new Map(plan.target.regions.map((r, i) => [r, keys[i] ?? '']));
    const batches = plan.batches.map((b) => ({ ...b, regions: b.regions.filter((r) => !reusedKeys.has(keyOf.get(r) ?? regionKey({ ...r, context: contextOf(r.file) }, version))) })).filter((b) => b.regions.length > 0);
    return { plan: { ...plan, batches }, carried, reused, keys };
  }

  /**
   * The findings of the last review of each file with a region reviewed afresh that are not raised again (by the
   * same agent, or with the same rule or a similar title): resolved by the change.
   */
  private resolved(plan: ChangesPlan, carry: CarryOver, findings: readonly Finding[]): Finding[] {
    const reusedKeys = new Set(carry.reused.map((i) => carry.keys[i]));
    const freshFiles = new Set(plan.target.regions.filter((_, i) => !carry.reused.includes(i)).map((r) => r.file));
    const out: Finding[] = [];
    for (const file of freshFiles) {
      for (const key of this.data.files[file] ?? []) {
        if (reusedKeys.has(key)) continue;
        for (const old of this.data.regions[key]?.findings ?? []) {
          if (!raisedAgain(old, findings)) out.push({ ...old });
        }
      }
    }
    return out;
  }

  /**
   * `summary` (of the regions sent) with the carried findings among its findings, the reused regions marked in its
   * target, and the last review's findings resolved since (`resolved`, on a re-review).
   */
  withCarried(plan: ChangesPlan, carry: CarryOver, summary: ReviewSummary): ReviewSummary {
    const findings = mergeFindings([...summary.findings, ...carry.carried]);
    const reused = new Set(carry.reused);
    const target = { ...summary.target, regions: summary.target.regions.map((r, i) => (reused.has(i) ? { ...r, reused: true } : r)) };
    const resolved = this.resolved(plan, carry, findings);
    const seen = Object.keys(this.data.regions).length > 0;
    return { ...summary, target, findings, ...(seen ? { resolved } : {}) };
  }

  /** Remembers the regions of a finished review: each reviewed region's findings (carried ones are already known). */
  remember(plan: ChangesPlan, carry: CarryOver, summary: ReviewSummary): void {
    if (!reviewComplete(summary)) return;
    const at = this.now();
    const fresh = summary.findings.filter((f) => !f.carried);
    plan.target.regions.forEach((region, i) => {
      const key = carry.keys[i];
      if (!key) return;
      const existing = this.data.regions[key];
      if (existing) {
        existing.reviewedAt = at;
        return;
      }
      const findings = fresh.filter((f) => inRegion(f, region)).map(({ carried: _c, unverified: _u, mergedFrom: _m, reportedLines: _r, ...f }) => f);
      this.data.regions[key] = { file: region.file, startLine: region.startLine, endLine: region.endLine, findings, reviewedAt: at };
    });
    const byFile = new Map<string, string[]>();
    plan.target.regions.forEach((r, i) => byFile.set(r.file, [...(byFile.get(r.file) ?? []), carry.keys[i] ?? '']));
    for (const [file, keys] of byFile) this.data.files[file] = keys.filter((k) => k !== '');
    const entries = Object.entries(this.data.regions);
    if (entries.length > MAX_REGIONS) {
      entries.sort((a, b) => a[1].reviewedAt - b[1].reviewedAt);
      this.data.regions = Object.fromEntries(entries.slice(entries.length - MAX_REGIONS));
    }
  }

  /** Writes the memory (atomically); false when it could not be written (the review is not affected). */
  save(): boolean {
    try {
      mkdirSync(join(this.path, '..'), { recursive: true, mode: 0o700 });
      const temp = `${this.path}.${randomBytes(6).toString('hex')}.tmp`;
      writeFileSync(temp, scrubKey(JSON.stringify(this.data), this.secrets), { mode: 0o600, flag: 'wx' });
      renameSync(temp, this.path);
      return true;
    } catch {
      return false;
    }
  }
}

