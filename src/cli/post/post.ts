import type { Finding } from '../../core/domain/finding';
import type { Region } from '../../core/domain/target';
import type { ReviewSummary } from '../../core/domain/result';
import { scrubKey } from '../../core/redaction/redactor';
import { resolvedBody, summaryBody } from '../../core/report/pullRequest';
import { headCommit, localHunks, placementOf, type Commentable } from './diffLines';
import { findingKeys } from '../../core/memory/fingerprint';
import type { Draft, PostItem, Previous, PreviousThread, ReviewHost } from './host';
import type { ThreadResolution } from '../../core/outcomes/decide';
import { planSync } from './sync';

/**
 * `--post github|gitlab`: the finished review on the pull or merge request — threads on the diff's lines (with a
 * suggestion where the replacement covers exactly the commented lines), the rest listed where the host lists it,
 * one "resolved" reply to each earlier thread whose finding is gone, and one summary edited in place. Which
 * host it is matters only to the adapter (host.ts).
 */

interface PostInput {
  host: ReviewHost;
  /** The repository's root and the `--base` ref the changes were reviewed against. */
  root: string;
  base: string;
  summary: ReviewSummary;
  /** The findings to post: dismissed ones and those under the thresholds left out. */
  shown: readonly Finding[];
  dismissed: number;
  hidden: number;
  /** The reviewed regions as read (for fingerprints). */
  regions: readonly Pick<Region, 'file' | 'text' | 'startLine' | 'endLine'>[];
  /** Every agent finished: only then is a finding that is not raised any more taken as resolved. */
  complete: boolean;
  /** A progress line on stderr. */
  log: (line: string) => void;
  /** Told the threads resolved since (core/outcomes): by this push, or by a person on the host. */
  onThreads?: (threads: ThreadResolution[]) => void;
}

/** The threads this run resolves (their findings not raised on the new head) and those a person resolved. */
function resolutions(resolved: readonly PreviousThread[], previous: Previous, raised: ReadonlySet<string>): ThreadResolution[] {
  const byPush = resolved.map((t): ThreadResolution => ({ keys: t.keys, by: 'push' }));
  // Still raised on the new head: its lines did not change, so the person dismissed it.
  const byPerson = previous.threads.filter((t) => t.resolvedByPerson).map((t): ThreadResolution => ({ keys: t.keys, by: 'person', linesChanged: !t.keys.some((k) => raised.has(k)) }));
  return [...byPush, ...byPerson];
}

/** The replacement that covers exactly the finding's lines: its own suggestion, else the coding agent's for that range. */
function replacementOf(f: Finding, summary: ReviewSummary): string | undefined {
  if (f.suggestion !== undefined) return f.suggestion;
  return summary.agents.flatMap((a) => a.replacements ?? []).find((r) => r.file === f.file && r.startLine === f.startLine && r.endLine === f.endLine)?.code;
}

function draftOf(item: PostItem, commentable: Commentable, summary: ReviewSummary): Draft | undefined {
  const place = placementOf(item.finding, commentable);
  if (!place) return undefined;
  const code = replacementOf(item.finding, summary);
  if (code === undefined) return { item, place };
  return place.exact ? { item, place, suggestion: code } : { item, place, otherCode: code };
}

/** The lines threads may go on, or none when the checkout is not the request's head. */
async function commentableLines(input: PostInput, headSha: string): Promise<Commentable> {
  const { host, log } = input;
  const checkedOut = await headCommit(input.root);
  if (checkedOut !== headSha) {
    log(`HEAD (${checkedOut.slice(0, 7)}) is not the ${host.nouns.request}'s head (${headSha.slice(0, 7)}): findings go into the ${host.nouns.fallback}; check out the head commit to comment on lines`);
    return new Map();
  }
  return host.lines(await localHunks(input.root, input.base, headSha), log);
}

async function post(input: PostInput): Promise<string> {
  const { host, summary, log } = input;
  const headSha = await host.head();
  const commentable = await commentableLines(input, headSha);
  const previous = await host.previous();
  const items: PostItem[] = input.shown.map((finding) => ({ finding, keys: findingKeys(finding, input.regions) }));
  const raised = new Set(summary.findings.flatMap((f) => findingKeys(f, input.regions)));
  const plan = planSync(items, raised, previous);
  if (!input.complete && plan.resolve.length > 0) {
    log(`not every agent finished: ${plan.resolve.length} earlier thread(s) not raised this time are left as they are`);
    plan.resolve = [];
  }

  const drafts: Draft[] = [];
  const outside: PostItem[] = [];
  for (const item of plan.fresh) {
    const d = draftOf(item, commentable, summary);
    if (d) drafts.push(d);
    else outside.push(item);
  }
  const published = plan.fresh.length > 0 ? await host.publish(headSha, drafts, outside, log) : { inline: 0, unplaced: [] };
  for (const thread of plan.resolve) await host.resolve(thread, resolvedBody(headSha));
  if (input.complete) input.onThreads?.(resolutions(plan.resolve, previous, raised));

  // A finding the last summary listed is not new when it is listed again (or gets its thread now).
  const relisted = plan.fresh.filter((i) => i.keys.some((k) => previous.listed.has(k))).length;
  const posted = plan.fresh.length - relisted;
  const alreadyPosted = plan.alreadyPosted.length + relisted;
  const body = summaryBody(headSha, input.base, summary, input.shown, {
    posted, inline: published.inline, alreadyPosted, resolved: plan.resolve.length,
    dismissed: input.dismissed, hidden: input.hidden, previousSha: previous.summary?.sha,
  }, published.unplaced);
  await host.saveSummary(previous.summary, body);
  return `posted to ${host.nouns.where}: ${posted} new finding(s) (${published.inline} inline), ${alreadyPosted} already posted, ${plan.resolve.length} marked resolved; summary ${previous.summary ? 'updated' : 'created'}`;
}

/** Posts; the line to log, or one line saying why it failed (exit 3), the token never in it. */
export async function postReview(input: PostInput): Promise<{ ok: true; line: string } | { ok: false; problem: string }> {
  try {
    return { ok: true, line: await post(input) };
  } catch (e) {
    return { ok: false, problem: scrubKey(input.host.explain(e), input.host.token) };
  }
}
