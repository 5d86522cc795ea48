import { createHash } from 'node:crypto';
import { CWE_ID } from '../../shared/finding';
import type { Finding } from '../domain/finding';

/**
 * A finding's rule: `quorum/<agent>/<CWE-n>` when it names a weakness, else `quorum/<agent>/<slug of the title>`,
 * the agent being the first that reported it. The same issue reported again gets the same rule id, so code
 * scanning keeps one alert open instead of closing and reopening it.
 */
export function ruleIdOf(f: Pick<Finding, 'agents' | 'cwe' | 'title'>): string {
  const agent = slug(f.agents[0] ?? 'quorum') || 'quorum';
  if (f.cwe && CWE_ID.test(f.cwe)) return `quorum/${agent}/${f.cwe}`;
  return `quorum/${agent}/${slug(f.title) || `finding-${createHash('sha256').update(f.title).digest('hex').slice(0, 10)}`}`;
}

/** Lower-case ASCII words joined by dashes, at most 64 characters (titles in other scripts give ''). */
export function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
}
