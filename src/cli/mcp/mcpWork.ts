import { dirname, resolve } from 'node:path';
import { ChangesError } from '../../core/changes/types';
import type { ReviewWork } from '../../core/review/reviewRequest';
import type { ReviewTarget } from '../../core/domain/target';
import { UsageError } from '../flags';
import { findRepositoryRoot, relativeToRoot } from '../repository';
import { readChanges } from '../reviewSetup';
import { readTarget } from '../target';
import type { McpTarget } from './reviewBridge';
import type { McpSession } from './session';
import { ToolRefusal } from './toolRefusal';

/** A tool call's work, read as `quorum review` reads it. */
export interface McpWork {
  work: ReviewWork;
  root: string | undefined;
  /** Where `.quorum/dismissed.json` is read: the repository root, else the reviewed file's folder. */
  dismissedRoot: string;
}

/** Reads a tool call's target; what the caller must fix (a bad range, no repository) becomes a `ToolRefusal`. */
export async function readMcpWork(s: McpSession, t: McpTarget): Promise<McpWork> {
  try {
    return t.kind === 'changes' ? await readChangesWork(s, t) : await readFile(s, t);
  } catch (e) {
    // The file reader speaks of the command line's --lines; a tool call gives startLine and endLine.
    if (e instanceof UsageError) throw new ToolRefusal(e.message.replace(`-${Number.MAX_SAFE_INTEGER}`, '').replace(/^--lines (\d+)(-\d+)?/, 'lines $1$2').replace('(use --lines)', '(give startLine and endLine)'));
    if (e instanceof ChangesError) throw new ToolRefusal(e.message);
    throw e;
  }
}

async function readChangesWork(s: McpSession, t: Extract<McpTarget, { kind: 'changes' }>): Promise<McpWork> {
  const { changes, root } = await readChanges(resolve(s.cwd, t.repo ?? '.'), t.request, s.settings, s.log);
  return { work: { target: changes.target, changes }, root, dismissedRoot: root };
}

async function readFile(s: McpSession, t: Extract<McpTarget, { kind: 'file' }>): Promise<McpWork> {
  const path = resolve(s.cwd, t.path);
  const root = findRepositoryRoot(path);
  const relativeFile = root ? relativeToRoot(root, path) : undefined;
  const read = await readTarget(path, t.lines);
  // Findings name the file as the repository knows it.
  const shown = relativeFile ?? path;
  const target: ReviewTarget = { ...read, label: read.label.replace(path, shown), regions: read.regions.map((r) => ({ ...r, file: shown })) };
  return { work: { target, ...(relativeFile !== undefined ? { relativeFile } : {}) }, root, dismissedRoot: root ?? dirname(path) };
}
