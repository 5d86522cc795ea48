/**
 * The keys a model's JSON answer may use for a finding's title and severity and for improved code: one list for
 * the final parsers (core/agents) and the live preview of a streaming answer (answerProgress), so that what the
 * card counts while an agent writes is what the parser reads when it ends. In order of preference.
 */

export const TITLE_KEYS = ['title', 'summary', 'issue', 'name', 'headline', 'problem', 'finding'] as const;
export const SEVERITY_KEYS = ['severity', 'level', 'priority', 'risk'] as const;
export const CODE_KEYS = ['improvedCode', 'improved_code', 'code', 'fixedCode', 'fixed_code', 'newCode', 'new_code', 'replacement'] as const;
