import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PANEL_STRINGS, formatString, placeholderCount } from '../../../src/shared/panelStrings';

const root = resolve(__dirname, '..', '..', '..');
const placeholders = (s: string) => [...s.matchAll(/\{\d+\}/g)].map((m) => m[0]).sort();

describe('panel: strings', () => {
  it('every panel string (and the panel host\'s own) has a Korean translation with the same placeholders', () => {
    const ko = JSON.parse(readFileSync(resolve(root, 'l10n', 'bundle.l10n.ko.json'), 'utf8')) as Record<string, string>;
    const host = readFileSync(resolve(root, 'src', 'vscode', 'panel', 'reviewPanel.ts'), 'utf8');
    const hostStrings = [...host.matchAll(/l10n\.t\('((?:[^'\\]|\\.)*)'/g)].map((m) => m[1]!);
    assert.ok(hostStrings.length >= 2);
    const problems: string[] = [];
    for (const english of [...Object.values(PANEL_STRINGS), ...hostStrings]) {
      const t = ko[english];
      if (t === undefined) problems.push(`missing: ${english}`);
      else if (placeholders(t).join() !== placeholders(english).join()) problems.push(`placeholders differ: ${english} -> ${t}`);
    }
    assert.deepEqual(problems, []);
  });

  it('formats placeholders and counts them', () => {
    assert.equal(formatString('{0} in · {1} out', [1, '2']), '1 in · 2 out');
    assert.equal(formatString('{1} {0} {2}', ['a', 'b']), 'b a {2}', 'a missing argument stays visible');
    assert.equal(placeholderCount('{0} finished with {1} findings'), 2);
    assert.equal(placeholderCount('Stop'), 0);
  });
});
