import type { Finding } from '../domain/finding';
import type { Severity } from '../../shared/severity';

/** GitHub's security-severity scale (0.1–10): ≥ 9 critical, 7–8.9 high, 4–6.9 medium, 0.1–3.9 low. */
const SECURITY_SEVERITY: Record<Severity, number> = { critical: 9.5, high: 8.0, medium: 5.5, low: 3.0, info: 1.0 };

export function securitySeverity(severity: Severity): number {
  return SECURITY_SEVERITY[severity];
}

/** The mark of a severity in Markdown for GitHub (the step summary, pull request comments). */
export const SEVERITY_ICON: Record<Severity, string> = { critical: '🔴', high: '🟠', medium: '🟡', low: '🔵', info: '⚪' };

/** A finding about security: it names a CWE, or the security agent reported it. */
export function isSecurityFinding(f: Pick<Finding, 'cwe' | 'agents'>): boolean {
  return f.cwe !== undefined || f.agents.includes('security');
}
