import * as vscode from 'vscode';
import type { ChangeRequest } from '../../core/changes/types';
import type { TargetRef } from '../review/reviewTarget';
import { changesOfKey, changesTargetKey } from '../review/targetKeys';

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
    return changesTargetKey({ root: this.root.toString(), request: this.request, only: this.only });
  }

  /** The target a key names; undefined for other keys (and for a key whose file list was hashed). */
  static fromKey(key: string): ChangesTarget | undefined {
    const named = changesOfKey(key);
    if (!named) return undefined;
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(named.root, true);
    } catch {
      return undefined;
    }
    return new ChangesTarget(uri, named.request, named.only);
  }
}
