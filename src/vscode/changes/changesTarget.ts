import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { ChangeKind, ChangeRequest } from '../../core/changes/types';
import type { TargetRef } from '../review/reviewTarget';
import { changesKey, changesKeyParams } from './changesDecisions';

/** Panel keys are at most 2,000 characters; a longer list of picked files is named by its hash. */
const MAX_KEY = 1_900;
const KINDS: readonly ChangeKind[] = ['uncommitted', 'staged', 'ref', 'last-commit'];

/**
 * What a review of changes covers, as its panel knows it: a repository, a request (uncommitted, staged, against
 * a ref, last commit) and, from the Source Control view, the files picked. Re-run reviews the same request as
 * the changes are then.
 */
export class ChangesTarget implements TargetRef {
  constructor(
    readonly root: vscode.Uri,
    readonly request: ChangeRequest,
    /** Repository-relative paths picked in the Source Control view; all changed files when absent. */
    readonly only?: readonly string[],
  ) {}

  key(): string {
    const params = new URLSearchParams({ root: this.root.toString(), kind: this.request.kind });
    if (this.request.ref !== undefined) params.set('ref', this.request.ref);
    if (this.only) {
      const files = [...this.only].sort().join('\n');
      params.set('files', files);
      if (changesKey(params).length > MAX_KEY) params.set('files', `#${createHash('sha256').update(files).digest('hex').slice(0, 16)}`);
    }
    return changesKey(params);
  }

  /** The target a key names; undefined for other keys (and for a key whose file list was hashed). */
  static fromKey(key: string): ChangesTarget | undefined {
    const params = changesKeyParams(key);
    if (!params) return undefined;
    const root = params.get('root');
    const kind = KINDS.find((k) => k === params.get('kind'));
    if (!root || !kind) return undefined;
    const ref = params.get('ref');
    if (kind === 'ref' && !ref) return undefined;
    const files = params.get('files');
    if (files?.startsWith('#')) return undefined;
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(root, true);
    } catch {
      return undefined;
    }
    return new ChangesTarget(uri, { kind, ...(kind === 'ref' && ref ? { ref } : {}) }, files ? files.split('\n').filter((f) => f !== '') : undefined);
  }
}
