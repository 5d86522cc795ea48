/**
 * CWE families for matching security findings: a reported CWE matches an expected one when they are equal or
 * in the same family. Small on purpose (README "Evaluating models" lists the same table): close relatives
 * that reviewers use interchangeably for one weakness, never a broad class such as "injection".
 */
const CWE_FAMILIES: Readonly<Record<string, readonly number[]>> = Object.freeze({
  'sql-injection': [89, 564, 943],
  'os-command-injection': [77, 78, 88],
  'code-injection': [94, 95, 96],
  'cross-site-scripting': [79, 80, 83, 87],
  'path-traversal': [22, 23, 35, 36, 73],
  'unsafe-deserialization': [502],
  'hard-coded-credentials': [798, 259, 321],
  'weak-cryptography': [327, 326, 328, 916, 338],
  'server-side-request-forgery': [918],
  'xml-external-entities': [611, 776, 827],
  'cross-site-request-forgery': [352],
  'open-redirect': [601],
});

const FAMILY_OF = new Map<number, string>(Object.entries(CWE_FAMILIES).flatMap(([family, ids]) => ids.map((id) => [id, family] as const)));

/** The number of a well-formed `CWE-<n>` (case-insensitive, surrounding space allowed), else undefined. */
function cweNumber(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = /^\s*CWE-(\d{1,5})\s*$/i.exec(value);
  return m?.[1] !== undefined ? Number(m[1]) : undefined;
}

/** True when the reported CWE equals the expected one or is in the same family. */
export function sameCweFamily(expected: string, reported: string | undefined): boolean {
  const a = cweNumber(expected);
  const b = cweNumber(reported);
  if (a === undefined || b === undefined) return false;
  if (a === b) return true;
  const fa = FAMILY_OF.get(a);
  return fa !== undefined && fa === FAMILY_OF.get(b);
}
