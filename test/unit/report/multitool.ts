import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import multitool from '@microsoft/sarif-multitool';

export interface MultitoolFinding {
  level: string;
  ruleId: string;
  text: string;
}

/**
 * Runs Microsoft's SARIF Multitool `validate` (the self-contained binary its npm package ships; no .NET needed)
 * on a file and returns what it reported, at every level. Its rule SARIF2006 fetches every URI in the log: an
 * unreachable loopback proxy makes those fetches fail at once, so nothing leaves the machine (they are notes).
 */
export function validateSarif(file: string): MultitoolFinding[] {
  const out = join(mkdtempSync(join(tmpdir(), 'quorum-multitool-')), 'validation.sarif');
  const proxy = 'http://127.0.0.1:9';
  const r = spawnSync(multitool, ['validate', file, '--level', 'Error;Warning;Note', '--output', out, '--quiet'], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DOTNET_CLI_TELEMETRY_OPTOUT: '1', HTTP_PROXY: proxy, HTTPS_PROXY: proxy, http_proxy: proxy, https_proxy: proxy, NO_PROXY: '' },
  });
  if (r.error) throw new Error(`SARIF Multitool did not run: ${r.error.message}`);
  const log = JSON.parse(readFileSync(out, 'utf8')) as { runs: { results?: { level?: string; ruleId?: string; message?: { text?: string; arguments?: string[] } }[] }[] };
  return (log.runs[0]?.results ?? []).map((x) => ({ level: x.level ?? 'warning', ruleId: x.ruleId ?? '', text: x.message?.text ?? (x.message?.arguments ?? []).join(' ') }));
}
