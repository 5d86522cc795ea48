import * as vscode from 'vscode';
import { dismissOutcome } from '../../core/outcomes/decide';
import { readOutcomes, type OutcomeProblem, type OutcomeRecorder } from '../../core/outcomes/observe';
import { outcomeStats, type OutcomeStats } from '../../core/outcomes/stats';
import { OutcomeStore, readOutcomeFolder } from '../../core/outcomes/store';
import { fingerprintsOf } from '../../core/memory/fingerprint';
import type { Finding } from '../../core/domain/finding';
import type { QuorumLog } from '../log';
import { relativePath } from '../privacy/promptShaper';
import type { ReviewSession } from '../review/reviewSession';

/**
 * What became of each finding in the editor (core/outcomes): the stores live in the workspace's storage (the
 * global storage without a workspace), one per repository; reviews record through `recorder`, dismissals
 * through `dismissed`; Show Review Outcomes and Compare Models read `stats`.
 */
export class OutcomeService implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  /** Problems already logged, so that each is told once. */
  private readonly told = new Set<string>();

  /** `dir`: the folder the stores go in (their `outcomes-v1` sub-folder). */
  constructor(
    readonly dir: string | undefined,
    private readonly log: QuorumLog,
  ) {}

  private problem(p: OutcomeProblem): void {
    const line = p.code === 'corrupt' ? `The outcome store ${p.path} had ${p.lines} invalid line(s); rebuilt from the valid ones` : p.code === 'unwritable' ? `Could not write the outcome store ${p.path}` : p.message;
    if (this.told.has(line)) return;
    this.told.add(line);
    this.log.warn(line);
  }

  /** The root whose store a review of `uri` records into: the repository of a review of changes, else the file's workspace folder. */
  rootOf(uri: vscode.Uri, root?: vscode.Uri): vscode.Uri | undefined {
    const found = root ?? vscode.workspace.getWorkspaceFolder(uri)?.uri;
    return found?.scheme === 'file' ? found : undefined;
  }

  private store(root: vscode.Uri): OutcomeStore | undefined {
    return this.dir ? new OutcomeStore({ dir: this.dir, root: root.fsPath }) : undefined;
  }

  /** The repository of each review recorded (by session id): a dismissal there goes to its store. */
  private readonly roots = new Map<string, vscode.Uri>();

  /** The recorder of the review `sessionId` under `root`; the view is told once the review's outcomes are kept. */
  recorder(root: vscode.Uri, sessionId: string): OutcomeRecorder | undefined {
    const store = this.store(root);
    if (!store) return undefined;
    this.roots.set(sessionId, root);
    return { store, readFile: (file) => this.text(vscode.Uri.joinPath(root, file)), onProblem: (p) => this.problem(p), onRecorded: () => this.changed.fire() };
  }

  /** The part of a review request that records its outcomes: in its repository's (or workspace folder's) store, when it has one. */
  forReview(uri: vscode.Uri, root: vscode.Uri | undefined, reviewId: string): { outcomes?: OutcomeRecorder } {
    const found = this.rootOf(uri, root);
    const recorder = found && this.recorder(found, reviewId);
    return recorder ? { outcomes: recorder } : {};
  }

  /** A file's text now: the open document's, else the file's; null when it is not there. */
  private async text(uri: vscode.Uri): Promise<string | null | undefined> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) return open.getText();
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch (e) {
      return e instanceof vscode.FileSystemError && e.code === 'FileNotFound' ? null : undefined;
    }
  }

  /** A finding dismissed in the editor (with the reason, when one was given): its record says so. */
  dismissed(session: ReviewSession, finding: Finding, reason?: string): void {
    const uri = session.uriOf(finding.file);
    const root = this.roots.get(session.id);
    const store = root && this.store(root);
    const region = session.fullTarget.regions[session.regionIndex(finding.file, finding.startLine, finding.endLine)];
    if (!root || !store || !region) return;
    const [print] = fingerprintsOf(finding, region.text, region.startLine);
    if (!print) return;
    const raised = { finding: { ...finding, file: relativePath(root, uri) ?? finding.file }, rule: print.rule, code: print.code, lines: print.lines, agents: finding.agents.map((agent) => ({ agent, model: '', costUsd: 0 })) };
    const record = dismissOutcome(readOutcomes(store, (p) => this.problem(p)), raised, Date.now(), reason);
    if (!record) return;
    if (!store.append([record])) this.problem({ code: 'unwritable', path: store.path });
    this.changed.fire();
  }

  /** The figures of every repository reviewed in this workspace (`agent`: that agent's part only). */
  stats(agent?: string): OutcomeStats {
    if (!this.dir) return outcomeStats([]);
    const read = readOutcomeFolder(this.dir);
    if (read.corrupt > 0) this.problem({ code: 'corrupt', lines: read.corrupt, path: this.dir });
    return outcomeStats(read.records, agent !== undefined ? { agent } : {});
  }

  dispose(): void {
    this.changed.dispose();
  }
}
