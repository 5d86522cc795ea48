import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { ReviewSummary } from '../../src/core/domain/result';
import type { QuorumApi } from '../../src/vscode/api';
import { startTestGateway, type RecordedRequest, type Reply, type TestGateway } from '../fixtures/gateway/server';
import { ScriptedPrompter, agentScript, closeAll, openSample, quorum, select, setSetting, until } from './helpers';

const KEY = 'sk-quorum-faces-test-8d2f6b4a0e';
const SQL_FIX = '    cur = conn.execute("SELECT * FROM orders WHERE id = ?", (order_id,))';
const ANSWER = 'Because `order_id` reaches the SQL text unescaped: `1\' OR \'1\'=\'1` returns every row. See [docs](command:quorum.resetCost).';

/** What each agent answers about orders.py lines 4-13. */
const ANSWERS = {
  analyst: { findings: [{ severity: 'high', title: 'Off-by-one reads past the end of prices', explanation: 'range(len(prices) + 1) indexes prices[len(prices)].', startLine: 11, endLine: 11, confidence: 0.9 }] },
  architecture: { findings: [] },
  security: {
    findings: [
      { severity: 'critical', title: 'SQL injection in find_order', explanation: 'order_id is concatenated into the <b>SQL</b> text.', startLine: 5, endLine: 5, cwe: 'CWE-89', suggestion: SQL_FIX, confidence: 0.95 },
    ],
  },
  coding: { rationale: 'none', improvedCode: 'pass' },
};

const isFollowUp = (r: RecordedRequest) => JSON.stringify(r.body ?? {}).includes('follow-up question');

/** Review answers by model, and follow-up questions answered with `ANSWER`, streamed slowly enough to arrive in pieces. */
function script(req: RecordedRequest): Reply | undefined {
  if (req.method === 'POST' && isFollowUp(req)) return { text: ANSWER, promptTokens: 700, tokensPerSecond: 400 };
  return agentScript(ANSWERS)(req);
}

interface Recorded {
  markdown: string[];
  anchors: { uri: string; line: number }[];
  buttons: vscode.Command[];
  progress: string[];
}

/** A chat response stream that records what the handler writes (in `rec`). */
function recordingStream(): { rec: Recorded; stream: Pick<vscode.ChatResponseStream, 'markdown' | 'anchor' | 'button' | 'progress'> } {
  const rec: Recorded = { markdown: [], anchors: [], buttons: [], progress: [] };
  return {
    rec,
    stream: {
      markdown: (value) => void rec.markdown.push(typeof value === 'string' ? value : value.value),
      anchor: (value) => {
        if (value instanceof vscode.Location) rec.anchors.push({ uri: value.uri.toString(), line: value.range.start.line });
      },
      button: (command) => void rec.buttons.push(command),
      progress: (value) => void rec.progress.push(value),
    },
  };
}

describe('review threads, @quorum, the agent-mode tool and the MCP server definition (real VS Code)', function () {
  this.timeout(90_000);
  let api: QuorumApi;
  let gateway: TestGateway;
  let ordersOnDisk: Uint8Array;
  const folder = () => {
    const first = vscode.workspace.workspaceFolders?.[0];
    assert.ok(first, 'the fixture workspace is open');
    return first.uri;
  };
  const ordersUri = () => vscode.Uri.joinPath(folder(), 'orders.py');
  const token = () => new vscode.CancellationTokenSource().token;

  const review = async (): Promise<{ summary: ReviewSummary; editor: vscode.TextEditor }> => {
    const editor = await openSample('orders.py');
    select(editor, 4, 13);
    const summary = await vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection');
    assert.ok(summary, 'the review ran');
    return { summary, editor };
  };

  before(async () => {
    api = await quorum();
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    ordersOnDisk = await vscode.workspace.fs.readFile(ordersUri());
    gateway = await startTestGateway({ apiKey: KEY });
    gateway.script(script);
    await setSetting(api, 'gateway.baseUrl', gateway.url);
    await setSetting(api, 'cache.ttlMinutes', 0);
    api.usePrompter(new ScriptedPrompter().onInput('apiKey.input', () => KEY));
    assert.equal(await vscode.commands.executeCommand('quorum.setApiKey'), true);
  });

  afterEach(async () => {
    api.useWorkspaceTrust(undefined);
    await setSetting(api, 'review.showFindingsIn', undefined);
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder(), '.quorum'), { recursive: true }).then(undefined, () => undefined);
    await closeAll();
  });

  after(async () => {
    await vscode.commands.executeCommand('quorum.clearApiKey');
    api.usePrompter(undefined);
    for (const key of ['gateway.baseUrl', 'cache.ttlMinutes']) await setSetting(api, key, undefined);
    await gateway.close();
    const now = await vscode.workspace.fs.readFile(ordersUri());
    if (Buffer.compare(Buffer.from(now), Buffer.from(ordersOnDisk)) !== 0) await vscode.workspace.fs.writeFile(ordersUri(), ordersOnDisk);
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
  });

  it('says which of the APIs exist in this VS Code at run time', () => {
    // The types say these exist; a VS Code without them (or with AI features off) has them undefined.
    const runtime: { chat?: Partial<typeof vscode.chat>; lm?: Partial<typeof vscode.lm> } = vscode;
    const found = {
      version: vscode.version,
      createCommentController: typeof vscode.comments.createCommentController === 'function',
      createChatParticipant: typeof runtime.chat?.createChatParticipant === 'function',
      registerTool: typeof runtime.lm?.registerTool === 'function',
      invokeTool: typeof runtime.lm?.invokeTool === 'function',
      toolListed: runtime.lm?.tools?.some((t) => t.name === 'quorum_review') ?? false,
      registerMcpServerDefinitionProvider: typeof runtime.lm?.registerMcpServerDefinitionProvider === 'function',
    };
    console.log(`[agent faces] ${JSON.stringify(found)}`);
    assert.ok(found.createCommentController && found.createChatParticipant && found.registerTool && found.registerMcpServerDefinitionProvider);
  });

  it('opens a thread on the lines of each finding, with severity, agents, the escaped explanation and the fix as a diff', async () => {
    api.useWorkspaceTrust(false);
    const { summary, editor } = await review();
    const threads = api.threads.threads(editor.document.uri).filter((t) => t.sessionId === summary.reviewId).sort((a, b) => a.startLine - b.startLine);
    assert.deepEqual(threads.map((t) => [t.startLine, t.endLine]), [[4, 4], [10, 10]]);
    const [sql, loop] = threads;
    assert.ok(sql && loop);
    assert.match(sql.label, /^Critical: SQL injection in find_order$/);
    assert.equal(sql.contextValue, 'finding fix');
    assert.equal(loop.contextValue, 'finding');
    const body = sql.comments[0]?.body ?? '';
    assert.match(sql.comments[0]?.author ?? '', /security/);
    assert.match(body, /CRITICAL · security · CWE\\-89/);
    assert.ok(body.includes('\\<b\\>SQL\\<\\/b\\>'), 'model text is escaped: no HTML');
    assert.match(body, /```diff\n- {4}cur = conn\.execute\("SELECT \* FROM orders WHERE id = '" \+ order_id \+ "'"\)\n\+ {4}cur = conn\.execute\("SELECT \* FROM orders WHERE id = \?", \(order_id,\)\)\n```/);
    const comment = (sql.thread.comments[0]?.body ?? '') as vscode.MarkdownString;
    assert.equal(comment.isTrusted, false);
    assert.equal(comment.supportHtml, false);
  });

  it('threads follow edits and close when their lines are deleted; Apply on a thread applies the fix and closes it', async () => {
    const { summary, editor } = await review();
    const uri = editor.document.uri;
    const mine = () => api.threads.threads(uri).filter((t) => t.sessionId === summary.reviewId);
    const moved = until(api.threads.onDidChange, () => mine().some((t) => t.startLine === 6));
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), '# one\n# two\n'));
    await moved;
    assert.deepEqual(mine().map((t) => t.startLine).sort((a, b) => a - b), [6, 12]);

    const loop = mine().find((t) => t.startLine === 12);
    const closed = until(api.threads.onDidChange, () => !mine().some((t) => t.findingId === loop?.findingId));
    await editor.edit((e) => e.delete(new vscode.Range(12, 0, 13, 0)));
    await closed;
    assert.equal(mine().length, 1);

    const sql = mine()[0];
    assert.ok(sql);
    assert.equal(await vscode.commands.executeCommand('quorum.thread.apply', sql.thread), true);
    assert.equal(editor.document.lineAt(6).text, SQL_FIX);
    assert.equal(mine().length, 0, 'the applied finding\'s thread closed');
  });

  it('a reply asks the agent that raised the finding and streams its answer into the thread; the cost joins the ledger', async () => {
    const { summary, editor } = await review();
    const sql = api.threads.threads(editor.document.uri).find((t) => t.sessionId === summary.reviewId && t.startLine === 4);
    assert.ok(sql);
    const before = api.ledger.entries({ reviewId: summary.reviewId, agent: 'security' }).length;
    const updates: number[] = [];
    const sub = api.threads.onDidChange(() => updates.push(Date.now()));
    const answered = await vscode.commands.executeCommand<boolean>('quorum.thread.reply', { thread: sql.thread, text: 'Is this exploitable?' });
    sub.dispose();
    assert.equal(answered, true);
    assert.ok(updates.length >= 3, `the answer arrived in pieces (${updates.length} updates)`);

    const request = gateway.requests.filter(isFollowUp).at(-1);
    assert.ok(request, 'the follow-up went to the gateway');
    assert.equal(request.model, 'gemini-2.5-flash', "on the security agent's model");
    const sent = JSON.stringify(request.body);
    assert.ok(sent.includes('SQL injection in find_order') && sent.includes('Is this exploitable?') && sent.includes("order_id + \\\"'\\\""), 'the finding, its code and the question');

    const view = api.threads.threads(editor.document.uri).find((t) => t.findingId === sql.findingId);
    assert.deepEqual(view?.comments.map((c) => c.author), ['Quorum · security', 'You', 'Quorum · security']);
    const answer = view.comments[2]?.body ?? '';
    assert.match(answer, /returns every row/);
    assert.doesNotMatch(answer, /\]\(command:/, 'a link in the answer cannot run a command');
    assert.equal(api.ledger.entries({ reviewId: summary.reviewId, agent: 'security' }).length, before + 1, 'its cost is in the session ledger');

    // The next question carries the conversation so far.
    await vscode.commands.executeCommand('quorum.thread.reply', { thread: sql.thread, text: 'And the fix?' });
    const second = JSON.stringify(gateway.requests.filter(isFollowUp).at(-1)?.body);
    assert.ok(second.includes('Is this exploitable?') && second.includes('returns every row') && second.includes('And the fix?'));
  });

  it('Dismiss in this project on a thread writes .quorum/dismissed.json and closes the thread; Dismiss closes it', async () => {
    api.useWorkspaceTrust(true);
    const { summary, editor } = await review();
    const mine = () => api.threads.threads(editor.document.uri).filter((t) => t.sessionId === summary.reviewId);
    const sql = mine().find((t) => t.startLine === 4);
    assert.ok(sql);
    assert.equal(sql.contextValue, 'finding fix project');
    assert.equal(await vscode.commands.executeCommand('quorum.thread.dismissInProject', sql.thread), true);
    const file = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder(), '.quorum', 'dismissed.json')))) as { dismissed: { agent: string; rule: string; file: string }[] };
    assert.deepEqual(file.dismissed.map((e) => [e.agent, e.rule, e.file]), [['security', 'CWE-89', 'orders.py']]);
    assert.deepEqual(mine().map((t) => t.startLine), [10]);
    assert.equal(await vscode.commands.executeCommand('quorum.thread.dismiss', mine()[0]?.thread), true);
    assert.equal(mine().length, 0);
  });

  it('a later review of the same lines replaces the threads; "problems" opens none, "threads" keeps findings out of Problems', async () => {
    const first = await review();
    const second = await review();
    const all = api.threads.threads(second.editor.document.uri);
    assert.ok(all.every((t) => t.sessionId === second.summary.reviewId), 'the earlier review\'s threads closed');
    assert.ok(!all.some((t) => t.sessionId === first.summary.reviewId));
    // A review of the whole file covers those lines too: its threads replace the selection review's.
    second.editor.selection = new vscode.Selection(0, 0, 0, 0);
    const whole = await vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection');
    assert.ok(whole);
    assert.deepEqual([...new Set(api.threads.threads(second.editor.document.uri).map((t) => t.sessionId))], [whole.reviewId]);
    assert.equal(api.threads.threads(second.editor.document.uri).length, 2);

    await setSetting(api, 'review.showFindingsIn', 'problems');
    assert.equal(api.threads.threads().length, 0);
    const third = await review();
    assert.equal(api.threads.threads(third.editor.document.uri).length, 0);
    // Problems keeps the findings of both reviews still known (the whole file's and these lines').
    assert.equal(vscode.languages.getDiagnostics(third.editor.document.uri).filter((d) => d.source === 'Quorum').length, 4);

    await setSetting(api, 'review.showFindingsIn', 'threads');
    assert.equal(vscode.languages.getDiagnostics(third.editor.document.uri).filter((d) => d.source === 'Quorum').length, 0);
    const fourth = await review();
    assert.equal(api.threads.threads(fourth.editor.document.uri).length, 2);
  });

  it('quorum_review through vscode.lm.invokeTool: the merged findings as compact lines; a bad input is a one-line error', async () => {
    await openSample('orders.py');
    const run = (input: object) => vscode.lm.invokeTool('quorum_review', { input, toolInvocationToken: undefined }, token());
    const text = (r: vscode.LanguageModelToolResult) => r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    const result = text(await run({ scope: 'file', path: 'orders.py', minSeverity: 'high' }));
    const lines = result.split('\n');
    assert.match(lines[0] ?? '', /^Quorum review of orders\.py:1-13: 2 findings, cost \$/);
    assert.equal(lines[1], `orders.py:5 critical [security] CWE-89 SQL injection in find_order — fix: replace with \`${SQL_FIX.trim()}\``);
    assert.equal(lines[2], 'orders.py:11 high [analyst] Off-by-one reads past the end of prices');

    assert.equal(text(await run({ scope: 'everything' })), 'Error: Invalid input: scope: Invalid option: expected one of "selection"|"file"|"uncommitted"|"staged"|"base"');
    assert.match(text(await run({ scope: 'file', path: '../outside.py' })), /^Error: Quorum cannot review this: \.\.\/outside\.py is not a file in the workspace\.$/);
    assert.match(text(await run({ scope: 'base' })), /^Error: Quorum cannot review this: scope "base" needs base/);
  });

  it('cancelling the tool\'s invocation or the chat\'s request cancels the review each started, not another running one', async () => {
    gateway.script((req) => (req.method === 'POST' && !isFollowUp(req) ? { kind: 'hang' } : undefined));
    try {
      const editor = await openSample('orders.py');
      select(editor, 4, 13);
      const started = until(api.controller.onDidStartReview);
      const editorReview = vscode.commands.executeCommand<ReviewSummary | undefined>('quorum.reviewSelection');
      const theEditors = await started;

      const invocation = new vscode.CancellationTokenSource();
      const toolStarted = until(api.controller.onDidStartReview);
      // Through the tool itself: `vscode.lm.invokeTool` rejects a cancelled invocation before the tool answers.
      const invoked = api.reviewTool.invoke({ input: { scope: 'file', path: 'orders.py' }, toolInvocationToken: undefined }, invocation.token);
      const theTools = await toolStarted;
      invocation.cancel();
      const result = await invoked;
      assert.equal(result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join(''), 'Error: the review was cancelled.');
      assert.equal(theTools.cancelled, true);

      // The chat reviews the active file (no selection): another target than the editor's review.
      editor.selection = new vscode.Selection(0, 0, 0, 0);
      const request = new vscode.CancellationTokenSource();
      const chatStarted = until(api.controller.onDidStartReview);
      const asked = api.chat({ command: 'review', prompt: '' }, recordingStream().stream, request.token);
      const theChats = await chatStarted;
      request.cancel();
      const answered = await asked;
      assert.equal(answered.metadata?.sessionId, theChats.id);
      assert.equal(theChats.cancelled, true);

      assert.equal(theEditors.cancelled, false, 'the editor\'s own review runs on');
      assert.deepEqual(api.controller.runningSessions().map((s) => s.id), [theEditors.id]);
      await vscode.commands.executeCommand('quorum.cancelReview');
      assert.equal((await editorReview)?.cancelled, true);
    } finally {
      gateway.script(script);
    }
  });

  it("quorum_review's confirmation shows the estimate before anything is sent", async () => {
    await openSample('orders.py');
    const sentBefore = gateway.requests.filter((r) => r.method === 'POST').length;
    const prepared = await api.reviewTool.prepareInvocation({ input: { scope: 'file', path: 'orders.py' } });
    const message = prepared.confirmationMessages?.message;
    const text = (typeof message === 'string' ? message : message?.value ?? '').replace(/\\(.)/g, '$1');
    assert.match(text, /^Quorum will send orders\.py:1-13 to analyst \(gpt-4\.1\), architecture \(claude-sonnet-4\.5\), security \(gemini-2\.5-flash\), coding \(deepseek-v3\.2\) through 127\.0\.0\.1:\d+: about [\d,]+ tokens in 4 requests · ≈ \$[\d.]+ likely · up to \$[\d.]+\.$/);
    assert.match(text, /likely/);
    assert.equal(gateway.requests.filter((r) => r.method === 'POST').length, sentBefore, 'nothing was sent to estimate');
  });

  it('@quorum /review streams the findings with anchors on their lines and buttons; /explain 1 streams the agent\'s answer', async () => {
    const editor = await openSample('orders.py');
    select(editor, 4, 13);
    const { rec: stream, stream: writer } = recordingStream();
    const result = await api.chat({ command: 'review', prompt: '' }, writer, token());
    assert.equal(result.errorDetails, undefined);
    const all = stream.markdown.join('');
    const plain = all.replace(/\\(.)/g, '$1');
    assert.match(plain, /2 finding\(s\) in orders\.py:4-13/);
    assert.match(plain, /SQL injection in find_order/);
    assert.deepEqual(stream.anchors.map((a) => a.line), [4, 10]);
    assert.ok(stream.anchors.every((a) => a.uri === editor.document.uri.toString()));
    assert.deepEqual(stream.buttons.map((b) => b.command), ['quorum.internal.applyFix', 'quorum.internal.showReview']);
    assert.ok(stream.progress.length > 0);

    const { rec: explained, stream: explainer } = recordingStream();
    const before = gateway.requests.filter(isFollowUp).length;
    const answer = await api.chat({ command: 'explain', prompt: '1 why?' }, explainer, token());
    assert.equal(answer.errorDetails, undefined);
    assert.equal(gateway.requests.filter(isFollowUp).length, before + 1);
    assert.ok(JSON.stringify(gateway.requests.filter(isFollowUp).at(-1)?.body).includes('why?'));
    assert.match(explained.markdown.join(''), /returns every row/);
    assert.doesNotMatch(explained.markdown.join(''), /\]\(command:/);
    assert.deepEqual(explained.buttons.map((b) => b.command), ['quorum.internal.applyFix']);

    const bad = await api.chat({ command: 'changes', prompt: 'sideways' }, recordingStream().stream, token());
    assert.match(bad.errorDetails?.message ?? '', /\/changes staged/);
  });
});
