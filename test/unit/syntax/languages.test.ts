import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { languageOfFile } from '../../../src/core/domain/fileLanguage';
import { addContext } from '../../../src/core/context/step';
import type { ContextSnippet } from '../../../src/core/domain/context';
import { createExcluder } from '../../../src/core/prompt/exclude';
import { SecretRedactor } from '../../../src/core/redaction/redactor';
import type { ReviewTarget } from '../../../src/core/domain/target';
import { TempRepo } from '../changes/gitRepo';

/**
 * Per language, a small repository: a helper defined in another file, a method on a class, a name defined twice, an
 * import alias (where the language has them), and a changed signature with a caller in another file. The changed
 * file's signature line and one body line are the changed lines.
 */
interface Case {
  files: Record<string, string>;
  main: string;
  changed: number[];
  /** Definitions that must be sent: symbol and file. */
  definitions: [symbol: string, file: string][];
  /** The caller of the changed function: its file and the line of the call. */
  caller: [symbol: string, file: string, line: number];
}

const CASES: Record<string, Case> = {
  typescript: {
    files: {
      'src/lib.ts': 'export function computeTotal(a: number, b: number): number {\n  return a + b;\n}\nexport function originalName(x: number): number {\n  return x * 2;\n}\nexport class Box {\n  open(): boolean {\n    return true;\n  }\n}\nexport function twice(): number { return 1; }\n',
      'src/other.ts': 'export function twice(): number { return 2; }\n',
      'src/main.ts': "import { computeTotal, Box, twice, originalName as renamed } from './lib';\n\nexport function run(n: number, extra: number): number {\n  const box = new Box();\n  return computeTotal(n, extra) + (box.open() ? 1 : 0) + twice() + renamed(n);\n}\n",
      'src/caller.ts': "import { run } from './main';\nexport function start(): number {\n  return run(1, 2);\n}\n",
    },
    main: 'src/main.ts',
    changed: [3, 5],
    definitions: [['computeTotal', 'src/lib.ts'], ['Box.open', 'src/lib.ts'], ['twice', 'src/lib.ts'], ['twice', 'src/other.ts'], ['originalName', 'src/lib.ts']],
    caller: ['run', 'src/caller.ts', 3],
  },
  javascript: {
    files: {
      'lib.js': 'export function computeTotal(a, b) {\n  return a + b;\n}\nexport function originalName(x) {\n  return x * 2;\n}\nexport class Box {\n  open() {\n    return true;\n  }\n}\nexport function twice() { return 1; }\n',
      'other.js': 'export function twice() { return 2; }\n',
      'main.js': "import { computeTotal, Box, twice, originalName as renamed } from './lib.js';\n\nexport function run(n, extra) {\n  const box = new Box();\n  return computeTotal(n, extra) + (box.open() ? 1 : 0) + twice() + renamed(n);\n}\n",
      'caller.js': "import { run } from './main.js';\nexport function start() {\n  return run(1, 2);\n}\n",
    },
    main: 'main.js',
    changed: [3, 5],
    definitions: [['computeTotal', 'lib.js'], ['Box.open', 'lib.js'], ['twice', 'lib.js'], ['twice', 'other.js'], ['originalName', 'lib.js']],
    caller: ['run', 'caller.js', 3],
  },
  python: {
    files: {
      'pkg/lib.py': 'def compute_total(a, b):\n    return a + b\n\n\ndef original_name(x):\n    return x * 2\n\n\nclass Box:\n    def open(self):\n        return True\n\n\ndef twice():\n    return 1\n',
      'pkg/other.py': 'def twice():\n    return 2\n',
      'pkg/main.py': 'from pkg.lib import compute_total, Box, twice\nfrom pkg.lib import original_name as renamed\n\ndef run(n, extra):\n    box = Box()\n    return compute_total(n, extra) + (1 if box.open() else 0) + twice() + renamed(n)\n',
      'pkg/caller.py': 'from pkg.main import run\n\ndef start():\n    return run(1, 2)\n',
    },
    main: 'pkg/main.py',
    changed: [4, 6],
    definitions: [['compute_total', 'pkg/lib.py'], ['Box.open', 'pkg/lib.py'], ['twice', 'pkg/lib.py'], ['twice', 'pkg/other.py'], ['original_name', 'pkg/lib.py']],
    caller: ['run', 'pkg/caller.py', 4],
  },
  go: {
    files: {
      'app/lib.go': 'package app\n\nfunc ComputeTotal(a int, b int) int {\n\treturn a + b\n}\n\ntype Box struct{}\n\nfunc (b *Box) Open() bool {\n\treturn true\n}\n\nfunc Twice() int { return 1 }\n',
      'other/other.go': 'package other\n\nfunc Twice() int { return 2 }\n',
      'app/main.go': 'package app\n\nfunc Run(n int, extra int) int {\n\tbox := &Box{}\n\treturn ComputeTotal(n, extra) + count(box.Open()) + Twice()\n}\n',
      'app/caller.go': 'package app\n\nfunc Start() int {\n\treturn Run(1, 2)\n}\n',
    },
    main: 'app/main.go',
    changed: [3, 5],
    definitions: [['ComputeTotal', 'app/lib.go'], ['Box.Open', 'app/lib.go'], ['Twice', 'app/lib.go'], ['Twice', 'other/other.go']],
    caller: ['Run', 'app/caller.go', 4],
  },
  java: {
    files: {
      'src/Lib.java': 'public class Lib {\n    public static int computeTotal(int a, int b) {\n        return a + b;\n    }\n\n    public static int twice() {\n        return 1;\n    }\n}\n',
      'src/Box.java': 'public class Box {\n    public boolean open() {\n        return true;\n    }\n}\n',
      'src/Other.java': 'class Other {\n    static int twice() {\n        return 2;\n    }\n}\n',
      'src/Main.java': 'public class Main {\n    public static int run(int n, int extra) {\n        Box box = new Box();\n        return Lib.computeTotal(n, extra) + (box.open() ? 1 : 0) + Lib.twice();\n    }\n}\n',
      'src/Caller.java': 'public class Caller {\n    int start() {\n        return Main.run(1, 2);\n    }\n}\n',
    },
    main: 'src/Main.java',
    changed: [2, 4],
    definitions: [['Lib.computeTotal', 'src/Lib.java'], ['Box.open', 'src/Box.java'], ['Lib.twice', 'src/Lib.java'], ['Other.twice', 'src/Other.java']],
    caller: ['Main.run', 'src/Caller.java', 3],
  },
  csharp: {
    files: {
      'src/Lib.cs': 'namespace App {\n    public static class Lib {\n        public static int ComputeTotal(int a, int b) {\n            return a + b;\n        }\n\n        public static int Twice() {\n            return 1;\n        }\n    }\n}\n',
      'src/Box.cs': 'namespace App {\n    public class Box {\n        public bool Open() {\n            return true;\n        }\n    }\n}\n',
      'src/Other.cs': 'class Other {\n    static int Twice() {\n        return 2;\n    }\n}\n',
      'src/Main.cs': 'using L = App.Lib;\nnamespace App {\n    public class Main {\n        public static int Run(int n, int extra) {\n            var box = new Box();\n            return L.ComputeTotal(n, extra) + (box.Open() ? 1 : 0) + Lib.Twice();\n        }\n    }\n}\n',
      'src/Caller.cs': 'namespace App {\n    public class Caller {\n        int Start() {\n            return Main.Run(1, 2);\n        }\n    }\n}\n',
    },
    main: 'src/Main.cs',
    changed: [4, 6],
    definitions: [['Lib.ComputeTotal', 'src/Lib.cs'], ['Box.Open', 'src/Box.cs'], ['Lib.Twice', 'src/Lib.cs'], ['Other.Twice', 'src/Other.cs'], ['Lib', 'src/Lib.cs']],
    caller: ['Main.Run', 'src/Caller.cs', 4],
  },
  php: {
    files: {
      'src/lib.php': '<?php\nnamespace App;\n\nfunction compute_total($a, $b) {\n    return $a + $b;\n}\n\nclass Box {\n    public function open() {\n        return true;\n    }\n}\n\nfunction twice() { return 1; }\n',
      'src/other.php': '<?php\nfunction twice() { return 2; }\n',
      'src/main.php': '<?php\nuse App\\Box as Crate;\n\nfunction run($n, $extra) {\n    $box = new Crate();\n    return compute_total($n, $extra) + ($box->open() ? 1 : 0) + twice();\n}\n',
      'src/caller.php': '<?php\nfunction start() {\n    return run(1, 2);\n}\n',
    },
    main: 'src/main.php',
    changed: [4, 5, 6],
    definitions: [['compute_total', 'src/lib.php'], ['Box.open', 'src/lib.php'], ['Box', 'src/lib.php'], ['twice', 'src/lib.php'], ['twice', 'src/other.php']],
    caller: ['run', 'src/caller.php', 3],
  },
  ruby: {
    files: {
      'lib/lib.rb': 'def compute_total(a, b)\n  a + b\nend\n\nclass Box\n  def open\n    true\n  end\nend\n\ndef twice\n  1\nend\n',
      'lib/other.rb': 'def twice\n  2\nend\n',
      'lib/main.rb': 'def run(n, extra)\n  box = Box.new\n  compute_total(n, extra) + (box.open ? 1 : 0) + twice\nend\n',
      'lib/caller.rb': 'def start\n  run(1, 2)\nend\n',
    },
    main: 'lib/main.rb',
    changed: [1, 3],
    definitions: [['compute_total', 'lib/lib.rb'], ['Box.open', 'lib/lib.rb'], ['twice', 'lib/lib.rb'], ['twice', 'lib/other.rb']],
    caller: ['run', 'lib/caller.rb', 2],
  },
  rust: {
    files: {
      'src/lib.rs': 'pub fn compute_total(a: i32, b: i32) -> i32 {\n    a + b\n}\n\npub fn original_name(x: i32) -> i32 {\n    x * 2\n}\n\npub struct Boxy;\n\nimpl Boxy {\n    pub fn open(&self) -> bool {\n        true\n    }\n}\n\npub fn twice() -> i32 { 1 }\n',
      'src/other.rs': 'pub fn twice() -> i32 { 2 }\n',
      'src/main.rs': 'use crate::lib::{compute_total, twice, Boxy};\nuse crate::lib::original_name as renamed;\n\npub fn run(n: i32, extra: i32) -> i32 {\n    let b = Boxy;\n    compute_total(n, extra) + if b.open() { 1 } else { 0 } + twice() + renamed(n)\n}\n',
      'src/caller.rs': 'pub fn start() -> i32 {\n    crate::main::run(1, 2)\n}\n',
    },
    main: 'src/main.rs',
    changed: [4, 6],
    definitions: [['compute_total', 'src/lib.rs'], ['Boxy.open', 'src/lib.rs'], ['twice', 'src/lib.rs'], ['twice', 'src/other.rs'], ['original_name', 'src/lib.rs']],
    caller: ['run', 'src/caller.rs', 2],
  },
};

function targetOf(repo: TempRepo, file: string, changed: number[]): ReviewTarget {
  const text = readFileSync(join(repo.dir, file), 'utf8').replace(/\n$/, '');
  const lines = text.split('\n').length;
  return {
    kind: 'changes',
    label: 'test',
    regions: [{ file, language: languageOfFile(file), text, startLine: 1, endLine: lines, changedLines: changed.map((n) => ({ start: n, end: n })) }],
  };
}

async function contextOf(repo: TempRepo, target: ReviewTarget, maxTokens = 5000): Promise<ReviewTarget> {
  const step = await addContext([target], { root: repo.dir, cacheDir: undefined, excluder: createExcluder({ globs: [] }), maxFileBytes: 1 << 20, maxTokens, redactor: new SecretRedactor() });
  const out = step.targets[0];
  assert.ok(out);
  return out;
}

const describeSnippets = (s: readonly ContextSnippet[]) => s.map((c) => `${c.kind} ${c.symbol} ${c.file}:${c.startLine}-${c.endLine}`).join('\n');

describe('context: definitions and callers per language', function () {
  this.timeout(60_000);
  for (const [language, c] of Object.entries(CASES)) {
    it(`${language}: definitions from other files, a method on a class, a name defined twice, aliases, the changed signature's caller`, async () => {
      const repo = new TempRepo();
      try {
        for (const [path, text] of Object.entries(c.files)) repo.write(path, text);
        repo.commit();
        const target = await contextOf(repo, targetOf(repo, c.main, c.changed));
        const snippets = target.context ?? [];
        const shown = describeSnippets(snippets);
        for (const [symbol, file] of c.definitions) {
          assert.ok(snippets.some((s) => s.kind === 'definition' && s.symbol === symbol && s.file === file), `${symbol} in ${file} is missing from:\n${shown}`);
        }
        const [symbol, file, line] = c.caller;
        assert.ok(snippets.some((s) => s.kind === 'caller' && s.symbol === symbol && s.file === file && s.startLine <= line && line <= s.endLine), `the caller of ${symbol} in ${file} is missing from:\n${shown}`);
        // Nothing the batch already sends is repeated.
        assert.ok(!snippets.some((s) => s.file === c.main), shown);
      } finally {
        repo.dispose();
      }
    });
  }
});
