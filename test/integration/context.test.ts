import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { ReviewSummary } from '../../src/core/domain/result';
import type { HostToWebview } from '../../src/shared/protocol';
import type { QuorumApi } from '../../src/vscode/api';
import { startTestGateway, type TestGateway } from '../fixtures/gateway/server';
import { ScriptedPrompter, agentScript, closeAll, openSample, quorum, select, setSetting } from './helpers';

const KEY = 'sk-quorum-context-test-7f3a9c1e5b';
const ANSWERS = { analyst: { findings: [] }, architecture: { findings: [] }, security: { findings: [] }, coding: { rationale: 'Nothing to change.', improvedCode: '' } };
/** checkout.ts as a file that no language server knows (the test's provider is its only one), and checkout.ts itself. */
const UNKNOWN_LANGUAGE = { scheme: 'file', pattern: '**/context/checkout.qtest' };
const CHECKOUT = { scheme: 'file', pattern: '**/context/checkout.ts' };

/** The context blocks of the chat requests: the `File:` lines under "Context (read-only, not reviewed):". */
function contextFiles(gateway: TestGateway): string[] {
  const bodies = gateway.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => JSON.stringify(r.body));
  assert.ok(bodies.length > 0, 'the review asked the gateway');
  const files = new Set<string>();
  for (const body of bodies) {
    const block = body.split('Context (read-only, not reviewed):')[1] ?? '';
    for (const m of block.matchAll(/File: ([\w./-]+) \((definition|caller|enclosing) /g)) files.add(`${m[1]} ${m[2]}`);
  }
  return [...files].sort();
}

describe('context from the language server (real VS Code, loopback gateway)', function () {
  this.timeout(90_000);
  let api: QuorumApi;
  let gateway: TestGateway;
  let providers: vscode.Disposable[] = [];
  let prompter: ScriptedPrompter;
  const folder = () => {
    const first = vscode.workspace.workspaceFolders?.[0];
    assert.ok(first, 'the fixture workspace is open');
    return first.uri;
  };

  before(async () => {
    api = await quorum();
    gateway = await startTestGateway({ apiKey: KEY });
    gateway.script(agentScript(ANSWERS));
    await setSetting(api, 'gateway.baseUrl', gateway.url);
    await setSetting(api, 'cache.ttlMinutes', 0);
    await setSetting(api, 'agents.architecture.enabled', false);
    await setSetting(api, 'agents.coding.enabled', false);
    prompter = new ScriptedPrompter().onInput('apiKey.input', () => KEY);
    api.usePrompter(prompter);
    assert.equal(await vscode.commands.executeCommand('quorum.setApiKey'), true);
  });

  afterEach(async () => {
    for (const p of providers) p.dispose();
    providers = [];
    gateway.requests.length = 0;
    await closeAll();
  });

  after(async () => {
    await vscode.commands.executeCommand('quorum.clearApiKey');
    api.usePrompter(undefined);
    for (const key of ['gateway.baseUrl', 'cache.ttlMinutes', 'agents.architecture.enabled', 'agents.coding.enabled']) await setSetting(api, key, undefined);
    await gateway.close();
  });

  async function reviewLine4(file: string): Promise<ReviewSummary> {
    const editor = await openSample(file);
    select(editor, 4, 4);
    const summary = await vscode.commands.executeCommand<ReviewSummary>('quorum.reviewSelection');
    assert.ok(summary, 'the review ran');
    return summary;
  }

  it('a language server that answers: the request carries the definition it pointed at', async () => {
    const rates = vscode.Uri.joinPath(folder(), 'context/rates.ts');
    let asked = 0;
    providers.push(
      vscode.languages.registerDefinitionProvider(UNKNOWN_LANGUAGE, {
        provideDefinition(doc, position) {
          asked++;
          const word = doc.getText(doc.getWordRangeAtPosition(position));
          if (word !== 'applyDiscount') return undefined;
          // Pointed somewhere tree-sitter would never look: only the server's answer can put rates.ts in the prompt.
          return [{ targetUri: rates, targetRange: new vscode.Range(0, 0, 3, 2), targetSelectionRange: new vscode.Range(0, 13, 0, 27), originSelectionRange: doc.getWordRangeAtPosition(position) }];
        },
      }),
    );
    await reviewLine4('context/checkout.qtest');
    assert.ok(asked > 0, 'the definition provider was asked');
    const files = contextFiles(gateway);
    assert.ok(files.includes('context/rates.ts definition'), files.join(', '));
  });

  /** checkout.qtest's one function, `checkout` (lines 3–6), as a language server's document symbols say it. */
  function checkoutSymbol(): vscode.Disposable {
    return vscode.languages.registerDocumentSymbolProvider(UNKNOWN_LANGUAGE, {
      provideDocumentSymbols: () => [new vscode.DocumentSymbol('checkout', '', vscode.SymbolKind.Function, new vscode.Range(2, 0, 5, 1), new vscode.Range(2, 16, 2, 24))],
    });
  }

  it('callers from the call hierarchy where the server offers one (calls, not every reference)', async () => {
    const rates = vscode.Uri.joinPath(folder(), 'context/rates.ts');
    const pricing = vscode.Uri.joinPath(folder(), 'context/pricing.ts');
    let incomingAsked = 0;
    let referencesAsked = 0;
    providers.push(
      checkoutSymbol(),
      vscode.languages.registerCallHierarchyProvider(UNKNOWN_LANGUAGE, {
        prepareCallHierarchy: (doc, position) => new vscode.CallHierarchyItem(vscode.SymbolKind.Function, 'checkout', '', doc.uri, new vscode.Range(2, 0, 5, 1), doc.getWordRangeAtPosition(position) ?? new vscode.Range(position, position)),
        provideCallHierarchyIncomingCalls: () => {
          incomingAsked++;
          // Only the hierarchy knows this caller (rates.ts line 2): the references point elsewhere.
          const from = new vscode.CallHierarchyItem(vscode.SymbolKind.Variable, 'SEASONAL_RATES', '', rates, new vscode.Range(0, 0, 3, 2), new vscode.Range(0, 13, 0, 27));
          return [new vscode.CallHierarchyIncomingCall(from, [new vscode.Range(1, 2, 1, 8)])];
        },
        provideCallHierarchyOutgoingCalls: () => [],
      }),
      vscode.languages.registerReferenceProvider(UNKNOWN_LANGUAGE, {
        provideReferences: () => {
          referencesAsked++;
          return [new vscode.Location(pricing, new vscode.Range(1, 2, 1, 8))];
        },
      }),
    );
    await reviewLine4('context/checkout.qtest');
    assert.ok(incomingAsked > 0, 'the incoming calls were asked');
    assert.equal(referencesAsked, 0, 'the references were not needed');
    const files = contextFiles(gateway);
    assert.ok(files.includes('context/rates.ts caller'), files.join(', '));
    assert.ok(!files.includes('context/pricing.ts caller'), files.join(', '));
  });

  it('callers from the references where the server offers no call hierarchy', async () => {
    const pricing = vscode.Uri.joinPath(folder(), 'context/pricing.ts');
    providers.push(
      checkoutSymbol(),
      vscode.languages.registerReferenceProvider(UNKNOWN_LANGUAGE, { provideReferences: () => [new vscode.Location(pricing, new vscode.Range(1, 2, 1, 8))] }),
    );
    await reviewLine4('context/checkout.qtest');
    const files = contextFiles(gateway);
    assert.ok(files.includes('context/pricing.ts caller'), files.join(', '));
  });

  /** The snapshots the review panel was sent, from now on. */
  function snapshots(): { list: Extract<HostToWebview, { type: 'snapshot' }>[]; dispose(): void } {
    const list: Extract<HostToWebview, { type: 'snapshot' }>[] = [];
    const sub = api.panels.onDidPostMessage((m) => {
      if (m.message.type === 'snapshot') list.push(m.message);
    });
    return {
      list,
      dispose: () => {
        sub.dispose();
      },
    };
  }

  async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = probe();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it("the panel's header is sent what context went out, and its entries open inside the workspace only", async () => {
    const rates = vscode.Uri.joinPath(folder(), 'context/rates.ts');
    providers.push(
      vscode.languages.registerDefinitionProvider(UNKNOWN_LANGUAGE, {
        provideDefinition(doc, position) {
          const word = doc.getText(doc.getWordRangeAtPosition(position));
          if (word !== 'applyDiscount') return undefined;
          return [{ targetUri: rates, targetRange: new vscode.Range(0, 0, 3, 2), targetSelectionRange: new vscode.Range(0, 13, 0, 27), originSelectionRange: doc.getWordRangeAtPosition(position) }];
        },
      }),
    );
    const sent = snapshots();
    try {
      const summary = await reviewLine4('context/checkout.qtest');
      const snap = await until('a snapshot with the context', () => sent.list.find((m) => (m.review?.context?.items.length ?? 0) > 0 && m.review?.sessionId === summary.reviewId));
      const context = snap.review?.context;
      assert.ok(context);
      assert.equal(context.enabled, true);
      assert.equal(context.root, folder().toString());
      assert.deepEqual(context.items.map((c) => `${c.file} ${c.kind} ${c.symbol}`), (summary.target.context ?? []).map((c) => `${c.file} ${c.kind} ${c.symbol}`), 'the header lists what the summary reports');
      assert.ok(context.items.some((c) => c.file === 'context/rates.ts' && c.kind === 'definition'), JSON.stringify(context.items));
      assert.equal(context.tokens, summary.target.contextTokens);
      // The page's click on an entry runs this command (panel/panelCommands.ts): the host opens it.
      const item = context.items.find((c) => c.file === 'context/rates.ts');
      assert.ok(item);
      assert.equal(await vscode.commands.executeCommand('quorum.internal.openContext', context.root, item.file, item.startLine, item.endLine), true);
      const editor = vscode.window.activeTextEditor;
      assert.equal(editor?.document.uri.fsPath, rates.fsPath);
      assert.equal(editor.selection.start.line, item.startLine - 1);
      // Anything outside the workspace is refused, and said.
      for (const outside of ['../../../../etc/passwd', '/etc/passwd']) {
        assert.equal(await vscode.commands.executeCommand('quorum.internal.openContext', context.root, outside, 1, 1), false, outside);
      }
      const refusals = prompter.messagesWith('context.openRefused');
      assert.equal(refusals.length, 2);
      assert.match(refusals[0]?.text ?? '', /opens only files inside the workspace/);
      assert.equal(await vscode.commands.executeCommand('quorum.internal.openContext', context.root, 'context/gone.ts', 1, 1), false);
      assert.match(prompter.messagesWith('context.openRefused')[2]?.text ?? '', /no longer in the workspace/);
    } finally {
      sent.dispose();
    }
  });

  it('with quorum.context.enabled off the header is told so, and no request carries context', async () => {
    await setSetting(api, 'context.enabled', false);
    const sent = snapshots();
    try {
      const summary = await reviewLine4('context/checkout.ts');
      const snap = await until('a snapshot of the review', () => sent.list.find((m) => m.review?.sessionId === summary.reviewId && m.review.context !== undefined));
      assert.deepEqual(snap.review?.context, { enabled: false, root: folder().toString(), items: [], tokens: 0, cut: [] });
      assert.deepEqual(contextFiles(gateway), []);
    } finally {
      sent.dispose();
      await setSetting(api, 'context.enabled', undefined);
    }
  });

  it('a language server that never answers: the review completes with the tree-sitter context', async () => {
    const never = <T>() => new Promise<T>(() => undefined);
    providers.push(
      vscode.languages.registerDefinitionProvider(CHECKOUT, { provideDefinition: () => never<vscode.Definition>() }),
      vscode.languages.registerReferenceProvider(CHECKOUT, { provideReferences: () => never<vscode.Location[]>() }),
      vscode.languages.registerDocumentSymbolProvider(CHECKOUT, { provideDocumentSymbols: () => never<vscode.DocumentSymbol[]>() }),
    );
    const started = Date.now();
    const summary = await reviewLine4('context/checkout.ts');
    console.log(`    review with a language server that never answers: ${Date.now() - started} ms`);
    assert.deepEqual(summary.agents.map((a) => a.status), ['ok', 'ok']);
    const files = contextFiles(gateway);
    assert.ok(files.includes('context/pricing.ts definition'), `the tree-sitter index found the definition: ${files.join(', ')}`);
  });
});
