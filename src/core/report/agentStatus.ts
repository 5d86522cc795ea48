import type { AgentResult } from '../domain/result';
import { reportWords } from './reportStrings';

/** An agent's end as reports say it: ok, cancelled, or error (a failure of any kind). */
export function reportStatus(r: Pick<AgentResult, 'status'>): 'ok' | 'cancelled' | 'error' {
  return r.status === 'ok' ? 'ok' : r.status === 'cancelled' ? 'cancelled' : 'error';
}

/** `ok`, `ok (cached)`, `cancelled`, `failed: quota`: an agent's end in the command line's words (text report, step summary). */
export function statusWords(r: Pick<AgentResult, 'status' | 'cached' | 'error'>): string {
  switch (reportStatus(r)) {
    case 'ok': return r.cached ? `${reportWords('stateDone')} (${reportWords('stateCached')})` : reportWords('stateDone');
    case 'cancelled': return reportWords('stateCancelled');
    case 'error': return `${reportWords('stateFailed')}: ${r.error?.code ?? 'error'}`;
  }
}
