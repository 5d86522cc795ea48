import { distance } from 'fastest-levenshtein';
import { compareFindings } from '../../shared/severity';
import type { Finding } from './finding';
import { sameFileOverlap } from './lines';

/** The same issue found by several agents: the same file, overlapping lines and a similar title (or the same CWE). */

function words(title: string): Set<string> {
  return new Set(title.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter((w) => w.length > 2));
}

/** 0..1: the better of edit-distance similarity and shared-word overlap of two titles. */
export function titleSimilarity(a: string, b: string): number {
  const x = a.trim().toLowerCase().slice(0, 160);
  const y = b.trim().toLowerCase().slice(0, 160);
  if (!x || !y) return 0;
  const edit = 1 - distance(x, y) / Math.max(x.length, y.length);
  const wa = words(x);
  const wb = words(y);
  const shared = [...wa].filter((w) => wb.has(w)).length;
  const overlap = wa.size && wb.size ? shared / Math.min(wa.size, wb.size) : 0;
  return Math.max(edit, overlap);
}


function sameIssue(a: Finding, b: Finding, threshold = 0.6): boolean {
  if (!sameFileOverlap(a, b)) return false;
  if (a.cwe && b.cwe && a.cwe === b.cwe) return true;
  return titleSimilarity(a.title, b.title) >= threshold;
}

/**
 * Merges findings of different agents that describe the same issue. The merged finding keeps the lines,
 * title, explanation and suggestion of its most severe (then most confident) report, names every agent, takes
 * the highest severity and a confidence raised by the agreement: 1 - Π(1 - cᵢ). Findings of one agent are never
 * merged with each other. Returns the merged list, most severe first; a merged finding keeps its primary
 * report's id and lists the ids of the other reports it folded in (`mergedFrom`), so that a face that showed
 * them while the review ran knows exactly where each went.
 */
export function mergeFindings(findings: readonly Finding[]): Finding[] {
  const groups: [Finding, ...Finding[]][] = [];
  for (const f of [...findings].sort(compareFindings)) {
    const group = groups.find((g) => g.every((m) => !m.agents.some((a) => f.agents.includes(a))) && g.some((m) => sameIssue(m, f)));
    if (group) group.push(f);
    else groups.push([f]);
  }
  return groups
    .map((group) => {
      const [primary, ...others] = group;
      if (others.length === 0) return { ...primary, agents: [...primary.agents] };
      const merged: Finding = {
        ...primary,
        agents: [...new Set(group.flatMap((g) => g.agents))],
        confidence: Math.round((1 - group.reduce((p, g) => p * (1 - g.confidence), 1)) * 1000) / 1000,
        mergedFrom: others.flatMap((o) => [o.id, ...(o.mergedFrom ?? [])]),
      };
      if (!merged.cwe) {
        const cwe = others.find((o) => o.cwe)?.cwe;
        if (cwe) merged.cwe = cwe;
      }
      if (merged.suggestion === undefined) {
        // Another report's suggestion only fits when it names the same lines.
        const s = others.find((o) => o.suggestion !== undefined && o.startLine === merged.startLine && o.endLine === merged.endLine);
        if (s?.suggestion !== undefined) merged.suggestion = s.suggestion;
      }
      return merged;
    })
    .sort(compareFindings);
}
