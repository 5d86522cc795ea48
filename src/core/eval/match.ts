import { builtinAgent } from '../../shared/builtinAgents';
import type { ExpectedFinding, ExpectedKind } from './corpus';
import { sameCweFamily } from '../domain/cwe';

/**
 * What a "true finding" is, defined once. A reported finding matches an expected one when its lines overlap
 * the expected lines widened by `LINE_TOLERANCE` on each side and the kind agrees: for `security` the CWE is
 * the same or in the same family; for `bug` and `design` one of the keywords occurs, case-insensitively, in the
 * title or the explanation. Matching is one-to-one and maximum (augmenting paths).
 */

const LINE_TOLERANCE = 2;

export interface ReportedFinding {
  startLine: number;
  endLine: number;
  title: string;
  explanation: string;
  cwe?: string;
  confidence: number;
}

/** The expected kinds an agent is scored on: a built-in's own (analyst bugs, architecture design, security security), a custom agent's all. */
export function kindsOf(agent: string): readonly ExpectedKind[] {
  return builtinAgent(agent)?.scoredOn ?? ['security', 'bug', 'design'];
}

function linesAgree(expected: Pick<ExpectedFinding, 'startLine' | 'endLine'>, reported: Pick<ReportedFinding, 'startLine' | 'endLine'>): boolean {
  const lo = Math.min(reported.startLine, reported.endLine);
  const hi = Math.max(reported.startLine, reported.endLine);
  return lo <= expected.endLine + LINE_TOLERANCE && hi >= expected.startLine - LINE_TOLERANCE;
}

function kindAgrees(expected: ExpectedFinding, reported: ReportedFinding): boolean {
  if (expected.kind === 'security') return expected.cwe !== undefined && sameCweFamily(expected.cwe, reported.cwe);
  const haystack = `${reported.title}\n${reported.explanation}`.toLowerCase();
  return (expected.keywords ?? []).some((k) => k.trim() !== '' && haystack.includes(k.trim().toLowerCase()));
}

export function matches(expected: ExpectedFinding, reported: ReportedFinding): boolean {
  return linesAgree(expected, reported) && kindAgrees(expected, reported);
}

interface CaseMatch {
  /** Expected findings in the agent's scope. */
  expected: number;
  /** Expected findings in scope matched by a reported finding. */
  matchedExpected: number;
  /** Reported findings that count: matched (true) plus unmatched and not ignored (false). */
  reported: number;
  /** Reported findings matched to an expected one (equals matchedExpected). */
  truePositives: number;
  falsePositives: number;
  /** Reported findings that matched nothing in scope but match an expected finding of another kind. */
  ignored: number;
  /** pairs[i] = index of the expected finding (among all of the case) reported finding i matched, or -1. */
  pairs: number[];
}

/**
 * Matches one agent's findings on one case. `scope` is the kinds the agent is scored on. A maximum matching is
 * found with augmenting paths (Kuhn), trying reported findings that would otherwise be false positives first,
 * so that among the maximum matchings the one with the fewest false positives is chosen (the matchable sets
 * form a matroid, so the greedy order is optimal); ties keep the reported order.
 */
export function matchCase(expected: readonly ExpectedFinding[], reported: readonly ReportedFinding[], scope: readonly ExpectedKind[]): CaseMatch {
  const inScope = expected.map((e, i) => ({ e, i })).filter(({ e }) => scope.includes(e.kind));
  const outOfScope = expected.filter((e) => !scope.includes(e.kind));
  const ignorable = reported.map((r) => outOfScope.some((e) => matches(e, r)));
  const adjacency = reported.map((r) => inScope.map(({ e }, j) => (matches(e, r) ? j : -1)).filter((j) => j >= 0));
  const order = reported.map((_, i) => i).sort((a, b) => Number(ignorable[a]) - Number(ignorable[b]) || a - b);

  const expectedOwner = new Array<number>(inScope.length).fill(-1);
  const augment = (r: number, seen: boolean[]): boolean => {
    for (const j of adjacency[r] ?? []) {
      if (seen[j]) continue;
      seen[j] = true;
      const owner = expectedOwner[j] ?? -1;
      if (owner < 0 || augment(owner, seen)) {
        expectedOwner[j] = r;
        return true;
      }
    }
    return false;
  };
  for (const r of order) augment(r, new Array<boolean>(inScope.length).fill(false));

  const pairs = new Array<number>(reported.length).fill(-1);
  expectedOwner.forEach((r, j) => {
    const original = inScope[j];
    if (r >= 0 && original) pairs[r] = original.i;
  });
  let truePositives = 0;
  let falsePositives = 0;
  let ignored = 0;
  pairs.forEach((p, r) => {
    if (p >= 0) truePositives++;
    else if (ignorable[r]) ignored++;
    else falsePositives++;
  });
  return {
    expected: inScope.length,
    matchedExpected: truePositives,
    reported: truePositives + falsePositives,
    truePositives,
    falsePositives,
    ignored,
    pairs,
  };
}
