import type { AgentOutcome, FindingView, HostToWebview, ReviewView, ReviewViewEvent } from '../../src/shared/protocol';
import { PANEL_STRINGS } from '../../src/shared/panelStrings';

/** Realistic review data and the messages the host would send for it. */

export const STRINGS: Record<string, string> = { ...PANEL_STRINGS };

export const TARGET = { file: '/work/project/src/auth/session.ts', language: 'typescript', startLine: 12, endLine: 48 };

export function baseReview(overrides: Partial<ReviewView> = {}): ReviewView {
  return {
    sessionId: 'review-1',
    targetKey: 'file:///work/project/src/auth/session.ts#12-48',
    uri: 'file:///work/project/src/auth/session.ts',
    target: { ...TARGET },
    status: 'running',
    startedAt: Date.now() - 4_000,
    estimateUsd: 0.0142,
    likelyUsd: 0.0031,
    agents: [],
    findings: [],
    dismissed: [],
    live: true,
    ...overrides,
  };
}

export const FINDINGS: FindingView[] = [
  {
    id: 'security-0', agents: ['security'], severity: 'critical', title: 'SQL built from the user name',
    explanation: 'The query concatenates `username` into SQL. Use a parameterised query. See https://owasp.org/www-community/attacks/SQL_Injection',
    startLine: 21, endLine: 22, cwe: 'CWE-89', confidence: 0.92,
    suggestion: "const row = await db.get('SELECT * FROM users WHERE name = ?', [username]);",
  },
  {
    id: 'analyst-1', agents: ['analyst', 'architecture'], severity: 'high', title: 'Session expiry is never checked',
    explanation: '`expiresAt` is stored but `getSession` returns expired sessions.', startLine: 34, endLine: 40, confidence: 0.8,
  },
  {
    id: 'architecture-0', agents: ['architecture'], severity: 'medium', title: 'Database access mixed into the HTTP handler',
    explanation: 'Move the lookup into a repository so it can be tested without a server.', startLine: 12, endLine: 48, confidence: 0.6,
  },
  {
    id: 'analyst-0', agents: ['analyst'], severity: 'low', title: 'Magic number for the session lifetime',
    explanation: 'Name `86400000` (one day in ms).', startLine: 30, endLine: 30, confidence: 0.7,
    suggestion: 'const SESSION_TTL_MS = 24 * 60 * 60 * 1000;',
  },
  {
    id: 'security-1', agents: ['security'], severity: 'info', title: 'Token compared with ===',
    explanation: 'Prefer a constant-time comparison for secrets.', startLine: 44, endLine: 44, confidence: 0.5,
  },
];

const usage = (p: number, c: number, cached = 0) => ({ promptTokens: p, completionTokens: c, cachedTokens: cached, reasoningTokens: 0 });

export function outcome(partial: Partial<AgentOutcome> & Pick<AgentOutcome, 'state' | 'model'>): AgentOutcome {
  return {
    text: '', cached: false, usage: usage(1200, 340), costUsd: 0.0031, costSource: 'reported', latencyMs: 4200, attempts: 1,
    findingCount: 0, ...partial,
  };
}

/** Answers as models write them: the findings JSON (fenced or bare), often with a closing sentence. */
export const ANSWERS = {
  analyst: '```json\n{"findings": [\n  {"severity": "high", "startLine": 34, "endLine": 40, "title": "Session expiry is never checked", "explanation": "`expiresAt` is stored but `getSession` returns expired sessions.", "confidence": 0.8},\n  {"severity": "low", "line": 30, "title": "Magic number for the session lifetime", "explanation": "Name `86400000` (one day in ms).", "suggestion": "const SESSION_TTL_MS = 24 * 60 * 60 * 1000;"}\n]}\n```\n\nBoth are easy to fix; the expiry check matters most.',
  architecture: '{"findings": [{"severity": "high", "lines": "34-40", "title": "Session expiry is never checked", "explanation": "Policy lives in the handler."}, {"severity": "medium", "lines": "12-48", "title": "Database access mixed into the HTTP handler", "explanation": "Move the lookup into a repository so it can be tested without a server."}]}',
  security: '{"findings":[{"severity":"critical","title":"SQL built from the user name","line":21}]}',
  coding: '{"rationale": "Parameterised the query and **checked expiry**.", "improvedCode": "const SESSION_TTL_MS = 24 * 60 * 60 * 1000;\\n"}',
};

export const IMPROVED = `const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

export async function getSession(db: Db, username: string): Promise<Session | undefined> {
  const row = await db.get('SELECT * FROM users WHERE name = ?', [username]);
  if (!row || row.expiresAt < Date.now()) return undefined;
  return { user: row.name, expiresAt: row.expiresAt };
}`;

/** A finished review: four agents, one cached, merged findings, improved code. */
export function doneReview(overrides: Partial<ReviewView> = {}): ReviewView {
  return baseReview({
    status: 'done',
    elapsedMs: 9_400,
    totals: { costUsd: 0.0118, promptTokens: 5_230, completionTokens: 1_410, cachedTokens: 800, requests: 4, retries: 1 },
    agents: [
      { agent: 'analyst', title: 'Analyst', model: 'gpt-4.1', state: 'done', text: ANSWERS.analyst, chunks: 120,
        outcome: outcome({ state: 'done', model: 'gpt-4.1', text: ANSWERS.analyst, findingCount: 2, usage: usage(1310, 322), costUsd: 0.0052, latencyMs: 5_120 }) },
      { agent: 'architecture', title: 'Architecture', model: 'claude-sonnet-4.5', state: 'done', text: ANSWERS.architecture, chunks: 0,
        outcome: outcome({ state: 'done', model: 'claude-sonnet-4.5', text: ANSWERS.architecture, cached: true, costUsd: 0, costSource: 'cached', latencyMs: 3, findingCount: 2 }) },
      { agent: 'security', title: 'Security', model: 'gemini-2.5-flash', state: 'done', text: ANSWERS.security, chunks: 60,
        outcome: outcome({ state: 'done', model: 'gemini-2.5-flash', text: ANSWERS.security, findingCount: 2, usage: usage(1280, 410, 800), costUsd: 0.0011, costSource: 'estimated', latencyMs: 3_480, attempts: 2 }) },
      { agent: 'coding', title: 'Coding', model: 'deepseek-v3.2', state: 'done', text: ANSWERS.coding, chunks: 200,
        outcome: outcome({ state: 'done', model: 'deepseek-v3.2', text: ANSWERS.coding, improvedCode: IMPROVED, rationale: 'Parameterised the query and **checked expiry**.', usage: usage(1410, 678), costUsd: 0.0055, latencyMs: 8_910 }) },
    ],
    findings: FINDINGS.map((f) => ({ ...f })),
    ...overrides,
  });
}

export function snapshot(review: ReviewView | null, seq = 1, strings: Record<string, string> = STRINGS): HostToWebview {
  return { type: 'snapshot', seq, review, strings };
}

export function events(seq: number, ...evs: ReviewViewEvent[]): HostToWebview {
  return { type: 'events', seq, events: evs };
}

/** The queued events of the four built-in agents. */
export function queuedAll(): ReviewViewEvent[] {
  return [
    { kind: 'queued', agent: 'analyst', title: 'Analyst', model: 'gpt-4.1', estimateUsd: 0.004 },
    { kind: 'queued', agent: 'architecture', title: 'Architecture', model: 'claude-sonnet-4.5', estimateUsd: 0.005 },
    { kind: 'queued', agent: 'security', title: 'Security', model: 'gemini-2.5-flash', estimateUsd: 0.001, likelyUsd: 0.0002 },
    { kind: 'queued', agent: 'coding', title: 'Coding', model: 'deepseek-v3.2', estimateUsd: 0.004 },
  ];
}

/** For the README screenshots: a finished review where one agent hit the gateway's rate limit. */
export function screenshotReview(): ReviewView {
  const review = doneReview({ startedAt: Date.now() - 9_400 });
  review.agents[1] = {
    agent: 'architecture', title: 'Architecture', model: 'claude-sonnet-4.5', state: 'failed', text: '', chunks: 0,
    outcome: outcome({
      state: 'failed', model: 'claude-sonnet-4.5', costUsd: 0, latencyMs: 20_400, attempts: 3,
      usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 },
      error: { code: 'rate-limited', status: 429, retryAfterMs: 30_000, message: 'HTTP 429 after 3 attempts' },
    }),
  };
  review.findings = review.findings.map((f) => ({ ...f, agents: [...new Set(f.agents.map((a) => (a === 'architecture' ? 'analyst' : a)))] }));
  return review;
}
