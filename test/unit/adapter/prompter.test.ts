import { strict as assert } from 'node:assert';
import type * as vscode from 'vscode';
import { REDACTED, Redactor } from '../../../src/core/redaction/redactor';
import { PrompterHolder, type ProgressOptions, type ProgressTask, type Prompter } from '../../../src/vscode/prompter';

/** VS Code's notification and input-box link pattern (`vs/base/common/linkedText.ts`). */
const LINKED_TEXT_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;
const KEY = 'hs-prompter-test-0123456789abcdef';
/** Text from outside Quorum (a model id, a gateway error, a file name) that tries a command link, a key and a bidi control. */
const HOSTILE = `[gpt-4.2](command:quorum.resetCost) key=${KEY} re\u202Eversed`;

/** What reached VS Code's window: every text shown, by where it was shown. */
interface Shown {
  where: string;
  text: string;
}

/** A stand-in for VS Code's window (`windowPrompter`): records what it is asked to show and answers as scripted. */
class RecordingWindow implements Prompter {
  readonly shown: Shown[] = [];
  private record(where: string, text: string | undefined): void {
    if (text !== undefined) this.shown.push({ where, text });
  }

  async pick<T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>): Promise<T | undefined> {
    const list = await items;
    for (const i of list) for (const [where, text] of [['label', i.label], ['description', i.description], ['detail', i.detail]] as const) this.record(`item ${where}`, text);
    return list[1];
  }

  async pickMany<T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>): Promise<readonly T[] | undefined> {
    const list = await items;
    for (const i of list) this.record('item label', i.label);
    return list;
  }

  async input(options: vscode.InputBoxOptions): Promise<string | undefined> {
    this.record('prompt', options.prompt);
    const verdict = await options.validateInput?.('anything');
    this.record('validation', typeof verdict === 'string' ? verdict : verdict?.message);
    return 'typed';
  }

  message(_level: string, text: string, options: { detail?: string }, ...actions: string[]): Promise<string | undefined> {
    this.record('message', text);
    this.record('detail', options.detail);
    return Promise.resolve(actions[0]);
  }

  async progress<R>(options: ProgressOptions, task: ProgressTask<R>): Promise<R> {
    this.record('progress title', options.title);
    // Never cancelled (no `vscode` here to make a Disposable of).
    const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) } as unknown as vscode.CancellationToken;
    return task({ report: (v) => this.record('progress message', v.message) }, token);
  }
}

function holder(): { prompter: PrompterHolder; window: RecordingWindow } {
  const redactor = new Redactor();
  redactor.add(KEY);
  const window = new RecordingWindow();
  return { prompter: new PrompterHolder(redactor, window), window };
}

/** Nothing shown can carry the key or a bidi control, and where VS Code renders links, none can be one. */
function assertSafe(shown: readonly Shown[], linkedText: boolean): void {
  assert.ok(shown.length > 0);
  for (const s of shown) {
    assert.ok(!s.text.includes(KEY) && s.text.includes(REDACTED), `${s.where}: ${s.text}`);
    assert.ok(!s.text.includes('\u202E') && s.text.includes('<U+202E>'), `${s.where}: ${s.text}`);
    if (linkedText) {
      assert.doesNotMatch(s.text, LINKED_TEXT_LINK, s.where);
      assert.ok(s.text.includes('[gpt-4.2] (command:quorum.resetCost)'), `${s.where} still reads what was attempted: ${s.text}`);
    }
  }
}

describe('the Prompter: every text it shows is redacted and escaped (without VS Code)', () => {
  it('a notification: its text and detail', async () => {
    const { prompter, window } = holder();
    assert.equal(await prompter.message('error', HOSTILE, { id: 't', detail: HOSTILE }, 'Retry'), 'Retry');
    assert.deepEqual(window.shown.map((s) => s.where), ['message', 'detail']);
    assertSafe(window.shown, true);
  });

  it('an input box: its prompt and its validation message, as text or as an object', async () => {
    for (const validation of [HOSTILE, { message: HOSTILE, severity: 3 }]) {
      const { prompter, window } = holder();
      assert.equal(await prompter.input({ id: 't', prompt: HOSTILE, validateInput: () => validation }), 'typed');
      assert.deepEqual(window.shown.map((s) => s.where), ['prompt', 'validation']);
      assertSafe(window.shown, true);
    }
  });

  it('a progress notification: its title and every message reported', async () => {
    const { prompter, window } = holder();
    const answer = await prompter.progress({ id: 't', title: HOSTILE }, (progress) => {
      progress.report({ message: HOSTILE, increment: 10 });
      progress.report({ increment: 10 });
      return Promise.resolve(42);
    });
    assert.equal(answer, 42);
    assert.deepEqual(window.shown.map((s) => s.where), ['progress title', 'progress message']);
    assertSafe(window.shown, true);
  });

  it('a quick pick: labels, descriptions and details without keys or bidi controls; the caller gets back its own item', async () => {
    const { prompter, window } = holder();
    const items = [{ label: HOSTILE, description: HOSTILE, detail: HOSTILE, model: 'a' }, { label: `$(person) ${HOSTILE}`, model: 'b' }];
    const chosen = await prompter.pick(items, { id: 't' });
    assert.equal(chosen, items[1], 'the item the caller gave, not the copy shown');
    assertSafe(window.shown, false);
    assert.ok(window.shown.some((s) => s.text.startsWith('$(person) ')), 'Quorum\'s own icons still show');
    const many = await prompter.pickMany(Promise.resolve(items), { id: 't' });
    assert.deepEqual(many, items);
    assert.equal(many[0], items[0]);
  });

  it('a prompter put in place (the test API) gets the same safe texts; undefined puts the window back', async () => {
    const { prompter, window } = holder();
    const other = new RecordingWindow();
    prompter.use(other);
    await prompter.message('info', HOSTILE, { id: 't' });
    assert.equal(window.shown.length, 0);
    assertSafe(other.shown, true);
    prompter.use(undefined);
    await prompter.message('info', HOSTILE, { id: 't' });
    assertSafe(window.shown, true);
  });
});
