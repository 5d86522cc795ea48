import type { AgentIssue } from '../agents/registry';

type ReviewConfigErrorCode = 'invalid-agents' | 'unknown-agent' | 'invalid-model' | 'no-agents' | 'empty-target';

/**
 * The review cannot start because of its configuration: a dependency cycle, an unknown dependency, an unknown
 * agent or model override, nothing to review. `message` is English and key-free; UIs localise from `code`.
 */
export class ReviewConfigError extends Error {
  readonly code: ReviewConfigErrorCode;
  readonly issues: AgentIssue[];
  readonly related: string[];

  constructor(code: ReviewConfigErrorCode, message: string, options: { issues?: AgentIssue[]; related?: string[] } = {}) {
    super(message);
    this.name = 'ReviewConfigError';
    this.code = code;
    this.issues = options.issues ?? [];
    this.related = options.related ?? [];
  }
}
