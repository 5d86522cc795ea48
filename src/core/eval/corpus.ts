import { SEVERITIES } from '../../shared/severity';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import type { ContextSnippet } from '../domain/context';
import { toolResultSchema, type ToolResult } from '../domain/toolResult';

/**
 * The labelled corpus: `<dir>/<case-id>/expected.json` plus the one source file it names. A folder without
 * `expected.json` (and any file at the top level) is not a case and is ignored; a case that is malformed, or a
 * corpus without cases, is a `CorpusError` naming the case and the field.
 */

const EXPECTED_KINDS = ['security', 'bug', 'design'] as const;
export type ExpectedKind = (typeof EXPECTED_KINDS)[number];

const expectedFindingSchema = z
  .looseObject({
    startLine: z.number().int().positive(),
    endLine: z.number().int().positive(),
    kind: z.enum(EXPECTED_KINDS),
    cwe: z.string().regex(/^CWE-\d{1,5}$/, 'cwe is CWE-<number>').optional(),
    keywords: z.array(z.string().trim().min(1)).min(1).optional(),
    severity: z.enum(SEVERITIES).optional(),
  })
  .superRefine((f, ctx) => {
    if (f.endLine < f.startLine) ctx.addIssue({ code: 'custom', path: ['endLine'], message: 'endLine is before startLine' });
    if (f.kind === 'security' && f.cwe === undefined) ctx.addIssue({ code: 'custom', path: ['cwe'], message: 'cwe is required for a security finding' });
    if (f.kind !== 'security' && f.keywords === undefined) ctx.addIssue({ code: 'custom', path: ['keywords'], message: `keywords are required for a ${f.kind} finding` });
  });

const expectedFileSchema = z.looseObject({
  language: z.string().trim().min(1),
  file: z
    .string()
    .trim()
    .min(1)
    .refine((f) => !/[\\/]/.test(f) && f !== '.' && f !== '..', 'file names a file beside expected.json'),
  findings: z.array(expectedFindingSchema),
  /** What the project's tools report on the file (the case's file is theirs): sent read-only, their repeats scored apart. */
  toolResults: z
    .array(toolResultSchema.omit({ file: true }).refine((r) => r.endLine >= r.startLine, { path: ['endLine'], error: 'endLine is before startLine' }))
    .max(500)
    .optional(),
});

export interface ExpectedFinding {
  startLine: number;
  endLine: number;
  kind: ExpectedKind;
  cwe?: string;
  keywords?: string[];
  severity?: (typeof SEVERITIES)[number];
}

export interface EvalCase {
  /** The case folder's name. */
  id: string;
  language: string;
  /** The source file's name, beside expected.json. */
  file: string;
  text: string;
  /** Lines of the source file. */
  lines: number;
  expected: ExpectedFinding[];
  /** Code from the case's other files sent read-only beside it (`withCaseContext`), named `<case-id>/<file>`. */
  context?: ContextSnippet[];
  /** What the project's tools report on the file, named `<case-id>/<file>` as the review names it. */
  toolResults?: ToolResult[];
}

export interface Corpus {
  dir: string;
  cases: EvalCase[];
}

export class CorpusError extends Error {
  override readonly name = 'CorpusError';
  constructor(
    message: string,
    /** The case folder, when one case is at fault. */
    readonly caseId?: string,
    /** The field at fault (`findings.0.cwe`, `file`), when there is one. */
    readonly field?: string,
  ) {
    super(message);
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

function lineCount(text: string): number {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return body.split('\n').length;
}

/** Parses one case's `expected.json` text; throws `CorpusError` naming the case and the field. */
export function parseExpected(id: string, json: string): z.infer<typeof expectedFileSchema> {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (e) {
    throw new CorpusError(`case "${id}": expected.json is not JSON (${e instanceof Error ? e.message : String(e)})`, id, 'expected.json');
  }
  const parsed = expectedFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue && issue.path.length > 0 ? issue.path.join('.') : 'expected.json';
    throw new CorpusError(`case "${id}": ${field}: ${issue?.message ?? 'invalid'}`, id, field);
  }
  return parsed.data;
}

async function loadCase(dir: string, id: string): Promise<EvalCase> {
  const expected = parseExpected(id, await readFile(join(dir, id, 'expected.json'), 'utf8'));
  let text: string;
  try {
    text = (await readFile(join(dir, id, expected.file), 'utf8')).replace(/\r\n/g, '\n');
  } catch {
    throw new CorpusError(`case "${id}": file: "${expected.file}" is not a readable file beside expected.json`, id, 'file');
  }
  if (text.trim() === '') throw new CorpusError(`case "${id}": file: "${expected.file}" is empty`, id, 'file');
  const lines = lineCount(text);
  expected.findings.forEach((f, i) => {
    if (f.endLine > lines) throw new CorpusError(`case "${id}": findings.${i}.endLine: line ${f.endLine} is past the end of ${expected.file} (${lines} lines)`, id, `findings.${i}.endLine`);
  });
  (expected.toolResults ?? []).forEach((r, i) => {
    if (r.endLine > lines) throw new CorpusError(`case "${id}": toolResults.${i}.endLine: line ${r.endLine} is past the end of ${expected.file} (${lines} lines)`, id, `toolResults.${i}.endLine`);
  });
  const toolResults = (expected.toolResults ?? []).map((r) => ({ ...r, file: `${id}/${expected.file}` }));
  return {
    id,
    language: expected.language,
    file: expected.file,
    text,
    lines,
    expected: expected.findings.map((f) => ({
      startLine: f.startLine,
      endLine: f.endLine,
      kind: f.kind,
      ...(f.cwe !== undefined ? { cwe: f.cwe } : {}),
      ...(f.keywords !== undefined ? { keywords: f.keywords } : {}),
      ...(f.severity !== undefined ? { severity: f.severity } : {}),
    })),
    ...(toolResults.length > 0 ? { toolResults } : {}),
  };
}

/** Loads every case of a corpus folder, sorted by id. */
export async function loadCorpus(dir: string): Promise<Corpus> {
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    throw new CorpusError(`the corpus folder "${dir}" cannot be read`);
  }
  const ids: string[] = [];
  for (const name of names.sort()) if (await exists(join(dir, name, 'expected.json'))) ids.push(name);
  if (ids.length === 0) throw new CorpusError(`the corpus folder "${dir}" holds no case (a folder with expected.json)`);
  const cases: EvalCase[] = [];
  for (const id of ids) cases.push(await loadCase(dir, id));
  return { dir, cases };
}

/** A case with no expected finding. */
export function isClean(c: Pick<EvalCase, 'expected'>): boolean {
  return c.expected.length === 0;
}
