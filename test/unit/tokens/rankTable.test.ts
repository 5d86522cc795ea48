import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from '../../../src/core/tokens/count';

/**
 * count.ts reads cl100k_base's rank table from a JSON copy (faster to load than the library's JavaScript
 * array). The copy must be the library's table exactly, and counts must be the library's counts.
 */
describe('the tokenizer reads its own copy of the library rank table', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the library's own table, the reference
  const library = require('gpt-tokenizer/bpeRanks/cl100k_base') as { default: readonly unknown[] };
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the library's own counter, the reference
  const reference = require('gpt-tokenizer/encoding/cl100k_base') as { countTokens: (text: string, options: { disallowedSpecial: Set<string> }) => number };

  it('cl100k_base.json is the library table, rank by rank (else: npm run tokenizer:table)', () => {
    const copy: unknown = JSON.parse(readFileSync(join(__dirname, '../../../data/cl100k_base.json'), 'utf8'));
    assert.ok(Array.isArray(copy));
    assert.equal(copy.length, library.default.length);
    const differing = library.default.flatMap((token, rank) => (JSON.stringify(token) === JSON.stringify(copy[rank]) ? [] : [rank]));
    assert.deepEqual(differing.slice(0, 5), []);
    // Ranks stored as bytes (tokens that are not valid UTF-8 on their own) are among them.
    assert.ok(copy.some((t) => Array.isArray(t)));
  });

  it('counts as the library counts: code, Korean, emoji, control and byte-level text, special tokens as plain text', () => {
    const texts = [
      'export function add(a: number, b: number): number {\n\treturn a + b;\n}\n',
      '보안 검토: 입력값을 검증하지 않으면 SQL 인젝션이 발생할 수 있습니다.',
      'emoji 👩‍💻🚀 and bidi \u202E evil \u202C and NUL \u0000 and lone surrogate \uD800 x',
      'def f(items):\r\n    return [i for i in items if i]\r\n' + ' '.repeat(300) + 'x'.repeat(700),
      '<|endoftext|> is a special token written as text',
    ];
    for (const t of texts) assert.equal(countTokens(t), reference.countTokens(t, { disallowedSpecial: new Set() }), JSON.stringify(t.slice(0, 40)));
  });
});

describe('the tokenizer loads in steps, in the gaps of other work', function () {
  this.timeout(60_000);

  /** A fresh process, so that the encoding starts cold whatever other tests have counted. */
  function cold(script: string): { status: number | null; stdout: string; stderr: string } {
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: join(__dirname, '../../..'), encoding: 'utf8' });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  it('lets I/O callbacks run between its steps, and a count made meanwhile finishes the load at once', () => {
    const r = cold(`
      import { countTokens, loadTokenizer } from './src/core/tokens/count.ts';
      const order = [];
      const loading = loadTokenizer().then(() => order.push('loaded'));
      // An I/O callback (a timer here) queued after the load began runs before the load's last step.
      setTimeout(() => order.push('timer'), 0);
      await new Promise((r) => setTimeout(r, 0));
      const n = countTokens('const answer = 42;');
      await loading;
      console.log(JSON.stringify({ order, n }));
    `);
    assert.equal(r.status, 0, r.stderr);
    const out: unknown = JSON.parse(r.stdout);
    assert.deepEqual(out, { order: ['timer', 'loaded'], n: 6 });
  });
});
