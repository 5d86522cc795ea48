import type { TargetInfo } from '../domain/target';
import { toolsOf } from '../domain/toolResult';

/**
 * What the project's tools contributed, in one line (`tools: 3 results from eslint, tsc; 1 finding already
 * reported, hidden`); '' when no tool result went out. The panel says the same with its own strings.
 */
export function toolsLine(target: Pick<TargetInfo, 'toolResults'>, redundant: number): string {
  const results = target.toolResults ?? [];
  if (results.length === 0) return '';
  const sent = `tools: ${results.length} result${results.length === 1 ? '' : 's'} from ${toolsOf(results).join(', ')}`;
  return redundant > 0 ? `${sent}; ${redundant} finding${redundant === 1 ? '' : 's'} already reported, hidden` : sent;
}
