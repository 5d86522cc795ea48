import type { CutContext } from '../domain/context';
import { contextCounts } from '../../shared/codeContext';
import type { TargetInfo } from '../domain/target';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * What context went out, in one line (`context: 6 definitions, 3 callers, 1 enclosing signature from 5 files ·
 * 1,900 tokens`), with what the token budget cut, and first how many regions had theirs when the time budget
 * stopped it (`context: 31 of 545 regions, time budget · …`); '' when none did.
 */
export function contextLine(target: Pick<TargetInfo, 'context' | 'contextTokens' | 'contextStatus'>, cut: readonly CutContext[] = []): string {
  const context = target.context ?? [];
  const status = target.contextStatus;
  const stopped = status?.stopped ? `${status.chosen.toLocaleString('en-US')} of ${plural(status.regions, 'region').replace(/^\d+/, status.regions.toLocaleString('en-US'))}, time budget · ` : '';
  if (context.length === 0 && cut.length === 0) return stopped ? `context: ${stopped}none` : '';
  const c = contextCounts(context, target.contextTokens ?? 0);
  const kinds = [c.definition > 0 && plural(c.definition, 'definition'), c.caller > 0 && plural(c.caller, 'caller'), c.enclosing > 0 && plural(c.enclosing, 'enclosing signature')].filter((k): k is string => typeof k === 'string');
  const sent = context.length > 0 ? `${kinds.join(', ')} from ${plural(c.files, 'file')} · ${c.tokens.toLocaleString('en-US')} tokens` : 'none';
  const left = cut.length > 0 ? `; left out for the token budget: ${[...new Set(cut.map((k) => `${k.symbol} (${k.kind}, ${k.file})`))].join(', ')}` : '';
  return `context: ${stopped}${sent}${left}`;
}

/** What the repository index did for this review, for the progress lines: `context index: 12,000 files, 3 read, 5 parsed` ('' without one). */
export function contextIndexLine(target: Pick<TargetInfo, 'contextStatus'>): string {
  const index = target.contextStatus?.index;
  return index ? `context index: ${plural(index.files, 'file').replace(/^\d+/, index.files.toLocaleString('en-US'))}, ${index.read.toLocaleString('en-US')} read, ${index.parsed.toLocaleString('en-US')} parsed` : '';
}
