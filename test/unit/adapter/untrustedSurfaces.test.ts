import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * Where VS Code renders Markdown or links, every text that did not come from Quorum is escaped by
 * `src/shared/untrustedText.ts`. These checks keep every such surface on the escaped paths: notifications
 * and input boxes only through the Prompter (which escapes everything it shows), progress notification
 * titles escaped where they are built, `MarkdownString`s never fully trusted.
 */

const root = resolve(__dirname, '..', '..', '..');
const adapter = join(root, 'src', 'vscode');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : name.endsWith('.ts') ? [p] : [];
  });
}

const sources = files(adapter).map((f) => ({ file: relative(root, f).replace(/\\/g, '/'), text: readFileSync(f, 'utf8') }));

describe('untrusted text reaches VS Code surfaces only escaped', () => {
  it('notifications, input boxes and quick picks are shown only by the Prompter', () => {
    const direct = sources
      .filter((s) => s.file !== 'src/vscode/prompter.ts')
      .filter((s) => /window\.(showErrorMessage|showWarningMessage|showInformationMessage|showInputBox|showQuickPick|createInputBox|createQuickPick)\b/.test(s.text))
      .map((s) => s.file);
    assert.deepEqual(direct, []);
  });

  it('the Prompter escapes the text, detail, prompt and validation message it shows', () => {
    const prompter = sources.find((s) => s.file === 'src/vscode/prompter.ts')?.text ?? '';
    assert.match(prompter, /escapeLinkedText\(this\.redactor\.redact\(text\)\)/);
    assert.match(prompter, /detail: this\.shown\(|this\.shown\(options\.detail\)/);
    assert.match(prompter, /prompt: safe\(options\.prompt\)/);
    assert.match(prompter, /this\.shown\(result\.message\)/);
  });

  it('every progress notification title is escaped (VS Code renders links in it)', () => {
    const unescaped: string[] = [];
    for (const s of sources) {
      for (const m of s.text.matchAll(/withProgress\(\s*\{[^}]*?title:\s*([^\n]*)/g)) {
        if (!/^escapeLinkedText\(/.test(m[1] as string)) unescaped.push(`${s.file}: ${(m[1] as string).trim()}`);
      }
    }
    assert.deepEqual(unescaped, []);
    assert.ok(sources.some((s) => /withProgress\(/.test(s.text)), 'the check saw the progress notifications');
  });

  it('no MarkdownString is fully trusted: only an explicit list of commands', () => {
    const offenders = sources.filter((s) => /isTrusted\s*[:=]\s*true|new vscode\.MarkdownString\([^)]*,\s*true\s*\)\s*;[^\n]*isTrusted\s*=\s*true/.test(s.text)).map((s) => s.file);
    assert.deepEqual(offenders, []);
    for (const s of sources.filter((x) => /isTrusted\s*=(?!\s*false\b)/.test(x.text))) {
      assert.match(s.text, /isTrusted\s*=\s*\{\s*enabledCommands:\s*\[/, s.file);
    }
  });

  it('every MarkdownString that shows names escapes them with escapeMarkdown', () => {
    const builders = sources.filter((s) => /new vscode\.MarkdownString\(/.test(s.text));
    assert.ok(builders.length > 0);
    for (const s of builders) assert.match(s.text, /escapeMarkdown\(/, s.file);
  });

  it('Problems and quick fix titles show bidi controls in model text as tokens, never raw', () => {
    const store = sources.find((s) => s.file === 'src/vscode/findings/findingStore.ts')?.text ?? '';
    assert.match(store, /revealBidi\(f\.explanation \? `\$\{f\.title\}\\n\$\{f\.explanation\}` : f\.title\)/);
    const actions = sources.find((s) => s.file === 'src/vscode/findings/codeActions.ts')?.text ?? '';
    assert.match(actions, /const title = revealBidi\(f\.title\)/);
    assert.doesNotMatch(actions, /l10n\.t\([^)]*f\.title/);
  });
});
