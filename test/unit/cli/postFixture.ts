import type { TestGateway } from '../../fixtures/gateway/server';
import { numbered, TempRepo } from '../changes/gitRepo';

/** What the `--post github|gitlab` tests share: the findings the analyst raises, and the pull request's repository. */

export interface Raised {
  file: string;
  startLine: number;
  endLine: number;
  severity: string;
  title: string;
  explanation?: string;
  suggestion?: string;
  cwe?: string;
}

/** The analyst raises `raised()` for the files a request carries; the other agents find nothing. */
export function scriptRaised(tg: TestGateway, raised: () => readonly Raised[]): void {
  tg.script((req) => {
    if (req.model === 'deepseek-v3.2') return { text: JSON.stringify({ rationale: 'r', replacements: [] }) };
    if (req.model !== 'gpt-4.1') return { text: '{"findings":[]}' };
    const sent = JSON.stringify(req.body?.messages ?? []);
    return { text: JSON.stringify({ findings: raised().filter((f) => sent.includes(f.file)).map((f) => ({ confidence: 0.9, explanation: 'Explained.', ...f })) }) };
  });
}

/** A repository whose branch `feature` changes line 10 of src/app.py (40 lines) and adds src/new.js (3 lines). */
export function featureRepo(): TempRepo {
  const repo = new TempRepo();
  repo.write('src/app.py', numbered(40)).write('src/keep.py', 'print("same")\n').commit('base');
  repo.git('checkout', '-q', '-b', 'feature');
  repo.write('src/app.py', numbered(40, (i) => (i === 10 ? 'os.system("sh -c " + cmd)' : `line ${i}`)));
  repo.write('src/new.js', 'const a = 1;\nexec(process.argv[2]);\nmodule.exports = a;\n');
  return repo.commit('feature');
}
