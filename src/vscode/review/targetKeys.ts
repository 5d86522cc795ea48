import { createHash } from 'node:crypto';
import type { ChangeKind, ChangeRequest } from '../../core/changes/types';
import { changesKey, changesKeyParams } from '../changes/changesDecisions';

/**
 * The panel keys of review targets (one panel per key; a panel restored after a reload knows only its key), written
 * and read back as plain data: no `vscode` at run time, unit-tested without VS Code. `LinesTarget` and
 * `ChangesTarget` turn the URIs into `vscode.Uri`s.
 */

/** Lines startLine..endLine (1-based) of the document at `uri`. */
interface LinesKey {
  uri: string;
  startLine: number;
  endLine: number;
}

export function linesKey({ uri, startLine, endLine }: LinesKey): string {
  return `${uri}#L${startLine}-L${endLine}`;
}

/** The lines a key names; undefined for other keys. */
export function linesOfKey(key: string): LinesKey | undefined {
  const [, uri, start, end] = /^(.*)#L(\d+)-L(\d+)$/.exec(key) ?? [];
  return uri && start && end ? { uri, startLine: Number(start), endLine: Number(end) } : undefined;
}

/** Panel keys are at most 2,000 characters; a longer list of picked files is named by its hash. */
const MAX_KEY = 1_900;
const KINDS: readonly ChangeKind[] = ['uncommitted', 'staged', 'ref', 'last-commit'];

/** A review of changes: the repository root's URI, the request and the files picked (all changed files when absent). */
interface ChangesKey {
  root: string;
  request: ChangeRequest;
  only?: readonly string[] | undefined;
}

export function changesTargetKey({ root, request, only }: ChangesKey): string {
  const params = new URLSearchParams({ root, kind: request.kind });
  if (request.ref !== undefined) params.set('ref', request.ref);
  if (only) {
    const files = [...only].sort().join('\n');
    params.set('files', files);
    if (changesKey(params).length > MAX_KEY) params.set('files', `#${createHash('sha256').update(files).digest('hex').slice(0, 16)}`);
  }
  return changesKey(params);
}

/** The review of changes a key names; undefined for other keys (and for a key whose file list was hashed). */
export function changesOfKey(key: string): ChangesKey | undefined {
  const params = changesKeyParams(key);
  if (!params) return undefined;
  const root = params.get('root');
  const kind = KINDS.find((k) => k === params.get('kind'));
  if (!root || !kind) return undefined;
  const ref = params.get('ref');
  if (kind === 'ref' && !ref) return undefined;
  const files = params.get('files');
  if (files?.startsWith('#')) return undefined;
  return { root, request: { kind, ...(kind === 'ref' && ref ? { ref } : {}) }, ...(files ? { only: files.split('\n').filter((f) => f !== '') } : {}) };
}
