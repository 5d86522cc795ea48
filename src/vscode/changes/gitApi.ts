import * as vscode from 'vscode';
import * as z from 'zod';
import { field } from '../../shared/guards';

/**
 * The part of the built-in Git extension's API (`vscode.git`, `getAPI(1)`, see its `src/api/git.d.ts`) that
 * Quorum uses, declared here rather than copied whole, and checked as it comes back: the extension is
 * another party, and its answers are validated like any other input.
 */

/** `Status` of the Git extension (a `const enum` there): only the values Quorum reads. */
export const GitStatus = { INDEX_ADDED: 1, INDEX_DELETED: 2, INDEX_RENAMED: 3, MODIFIED: 5, DELETED: 6, UNTRACKED: 7, IGNORED: 8, INTENT_TO_ADD: 9, INTENT_TO_RENAME: 10 } as const;

/** `RefType` of the Git extension. */
export const GitRefType = { Head: 0, RemoteHead: 1, Tag: 2 } as const;

export interface GitChange {
  readonly uri: vscode.Uri;
  readonly originalUri: vscode.Uri;
  readonly renameUri: vscode.Uri | undefined;
  readonly status: number;
}

interface GitRef {
  readonly type: number;
  readonly name?: string;
  readonly commit?: string;
  readonly remote?: string;
}

interface GitRefQuery {
  readonly pattern?: string | string[];
  readonly count?: number;
  readonly sort?: 'alphabetically' | 'committerdate';
}

/** A repository as the Git extension's API gives it (the methods Quorum calls). */
export interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly state: {
    readonly HEAD: { readonly name?: string; readonly commit?: string } | undefined;
    readonly indexChanges: readonly GitChange[];
    readonly workingTreeChanges: readonly GitChange[];
    readonly untrackedChanges?: readonly GitChange[];
  };
  status(): Promise<void>;
  /** Without a path: the files that differ between `ref` and the working tree; with one, that file's patch. */
  diffWith(ref: string, path?: string): Promise<unknown>;
  /** The same between `ref` and the index. */
  diffIndexWith(ref: string, path?: string): Promise<unknown>;
  getMergeBase(ref1: string, ref2: string): Promise<unknown>;
  getCommit(ref: string): Promise<unknown>;
  getRefs(query: GitRefQuery, token?: vscode.CancellationToken): Promise<unknown>;
  /** `git show REF:PATH` as bytes (`''` for the index). */
  buffer(ref: string, path: string): Promise<unknown>;
  /** `git config --local --get KEY` (`''` when unset); not in every version of the API. */
  getConfig?(key: string): Promise<unknown>;
  /** `git config --global --get KEY` (`''` when unset). */
  getGlobalConfig?(key: string): Promise<unknown>;
}

export interface GitApi {
  readonly repositories: readonly GitRepository[];
  getRepository?(uri: vscode.Uri): GitRepository | null;
}

const uri = z.custom<vscode.Uri>((v) => v instanceof vscode.Uri, 'a Uri');
const changeSchema = z.object({ uri, originalUri: uri, renameUri: z.optional(z.union([uri, z.undefined(), z.null()])), status: z.number().int() });
const refSchema = z.object({ type: z.number().int(), name: z.optional(z.string().max(1000)), commit: z.optional(z.string().max(100)), remote: z.optional(z.string().max(1000)) });
const commitSchema = z.object({ hash: z.string().regex(/^[0-9a-f]{40,64}$/), parents: z.array(z.string()) });

class GitApiError extends Error {
  constructor(readonly what: string) {
    super(`the Git extension answered ${what} in an unexpected shape`);
    this.name = 'GitApiError';
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new GitApiError(what);
  return r.data;
}

export const readChanges = (v: unknown): GitChange[] => parse(z.array(changeSchema), v, 'a list of changes').map((c) => ({ ...c, renameUri: c.renameUri ?? undefined }));
export const readPatch = (v: unknown): string => parse(z.string(), v, 'a diff');
export const readRefs = (v: unknown): GitRef[] => parse(z.array(refSchema), v, 'a list of refs');
export const readCommit = (v: unknown): { hash: string; parents: string[] } => parse(commitSchema, v, 'a commit');
export const readBytes = (v: unknown): Uint8Array => parse(z.custom<Uint8Array>((b) => b instanceof Uint8Array, 'bytes'), v, 'file contents');
/** A config value from `getConfig`/`getGlobalConfig` (`''` when unset, missing or not a string). */
export async function readConfigValue(answer: Promise<unknown> | undefined): Promise<string> {
  try {
    const r = z.string().max(4096).safeParse(await answer);
    return r.success ? r.data.trim() : '';
  } catch {
    return '';
  }
}
export const readMergeBase = (v: unknown): string | undefined => {
  const r = z.optional(z.string()).safeParse(v);
  return r.success && r.data && /^[0-9a-f]{40,64}$/.test(r.data.trim()) ? r.data.trim() : undefined;
};

type GitApiLookup =
  | { ok: true; api: GitApi }
  | { ok: false; problem: 'missing' | 'disabled' | 'failed' };

const repositoryShape = z.object({
  rootUri: uri,
  state: z.object({ indexChanges: z.array(z.unknown()), workingTreeChanges: z.array(z.unknown()) }).loose(),
}).loose();

function isRepository(v: unknown): v is GitRepository {
  if (!repositoryShape.safeParse(v).success || typeof v !== 'object' || v === null) return false;
  const methods = ['status', 'diffWith', 'diffIndexWith', 'getMergeBase', 'getCommit', 'getRefs', 'buffer'];
  return methods.every((m) => typeof field(v, m) === 'function');
}

/** The API object of version 1, checked: its repositories each have what Quorum calls. */
function asGitApi(value: unknown): GitApi | undefined {
  if (typeof value !== 'object' || value === null || !('repositories' in value)) return undefined;
  const repositories: unknown = value.repositories;
  if (!Array.isArray(repositories)) return undefined;
  const valid = repositories.filter(isRepository);
  const getRepository = 'getRepository' in value && typeof value.getRepository === 'function' ? (value.getRepository as (u: vscode.Uri) => unknown).bind(value) : undefined;
  return {
    repositories: valid,
    ...(getRepository ? { getRepository: (u: vscode.Uri) => {
      const r = getRepository(u);
      return isRepository(r) ? r : null;
    } } : {}),
  };
}

/** The built-in Git extension's API, activated if need be; why not, when it is missing or disabled. */
export async function lookUpGitApi(): Promise<GitApiLookup> {
  const ext = vscode.extensions.getExtension('vscode.git');
  if (!ext) return { ok: false, problem: 'missing' };
  let exports: unknown;
  try {
    exports = ext.isActive ? ext.exports : await ext.activate();
  } catch {
    return { ok: false, problem: 'failed' };
  }
  const gitExtension = z.object({ enabled: z.boolean(), getAPI: z.custom<(v: 1) => unknown>((f) => typeof f === 'function') }).loose().safeParse(exports);
  if (!gitExtension.success) return { ok: false, problem: 'failed' };
  if (!gitExtension.data.enabled) return { ok: false, problem: 'disabled' };
  let api: GitApi | undefined;
  try {
    api = asGitApi(gitExtension.data.getAPI.call(exports, 1));
  } catch {
    return { ok: false, problem: 'disabled' };
  }
  return api ? { ok: true, api } : { ok: false, problem: 'failed' };
}
