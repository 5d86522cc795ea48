import { filesOf, type Region, type ReviewTarget } from '../domain/target';
import { estimateTokens, regionsOf } from './regions';
import type { ChangeRequest, ChangeSet } from './types';

/** What a changes review sends: one target of every region, cut into batches of about `batchTokens` each. */
export interface ChangesPlan {
  /** Every region and skipped file: what the review covers. */
  target: ReviewTarget;
  /** The regions per request: each batch is one request per agent. */
  batches: ReviewTarget[];
  files: number;
  added: number;
  removed: number;
}

function changesLabel(request: ChangeRequest): string {
  switch (request.kind) {
    case 'uncommitted':
      return 'Uncommitted changes';
    case 'staged':
      return 'Staged changes';
    case 'last-commit':
      return 'Last commit';
    case 'ref':
      return `Changes against ${request.ref ?? 'HEAD'}`;
  }
}

/**
 * Regions of every file (hunks plus context, big ones split under `batchTokens`), then batches: a file's
 * regions stay together where they fit, small files share a batch up to `batchTokens`.
 */
export function planChanges(set: ChangeSet, options: { contextLines: number; batchTokens: number; label?: string }): ChangesPlan {
  const label = options.label ?? changesLabel(set.request);
  const perFile = set.files.map((f) => regionsOf(f, { contextLines: options.contextLines, maxTokens: options.batchTokens }));
  const batches: Region[][] = [];
  let current: Region[] = [];
  let size = 0;
  const flush = () => {
    if (current.length > 0) batches.push(current);
    current = [];
    size = 0;
  };
  for (const regions of perFile) {
    const fileSize = regions.reduce((n, r) => n + estimateTokens(r.text) + 30, 0);
    // A file that does not fit in what is left starts a batch of its own.
    if (size > 0 && size + fileSize > options.batchTokens) flush();
    for (const r of regions) {
      const t = estimateTokens(r.text) + 30;
      if (size > 0 && size + t > options.batchTokens) flush();
      current.push(r);
      size += t;
    }
  }
  flush();
  const all = perFile.flat();
  const target: ReviewTarget = { kind: 'changes', label, regions: all, skipped: set.skipped };
  return {
    target,
    batches: batches.map((regions) => ({ kind: 'changes', label, regions })),
    files: new Set(all.map((r) => r.file)).size,
    added: set.added,
    removed: set.removed,
  };
}

/**
 * The plan for a target that the prompt-shaping step changed (secrets redacted, excluded files moved to
 * skipped): the same batches, each with the shaped regions that remain.
 */
export function withShapedTarget(plan: ChangesPlan, shaped: ReviewTarget): ChangesPlan {
  const key = (r: Region) => `${r.file}\u0000${r.startLine}`;
  const byKey = new Map(shaped.regions.map((r) => [key(r), r]));
  const batches = plan.batches
    .map((b) => ({ ...b, regions: b.regions.flatMap((r) => byKey.get(key(r)) ?? []) }))
    .filter((b) => b.regions.length > 0);
  return { ...plan, target: shaped, batches, files: filesOf(shaped).length };
}
