// What the scripted walkthroughs (walk-*.ts) share: the workbench of shared/toolchain (its Playwright objects, as
// far as the walks use them), where a walk writes, and how it reports what it saw.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

export interface Locator {
  first(): Locator;
  nth(i: number): Locator;
  hover(): Promise<void>;
  click(options?: object): Promise<void>;
  fill(text: string): Promise<void>;
  press(key: string): Promise<void>;
  count(): Promise<number>;
  innerText(): Promise<string>;
  evaluateAll<T>(fn: (els: Element[]) => T): Promise<T>;
  waitFor(options?: { timeout?: number; state?: string }): Promise<void>;
  locator(selector: string, options?: { hasText?: string }): Locator;
}
interface Page {
  keyboard: { press(key: string): Promise<void>; type(text: string): Promise<void> };
  locator(selector: string, options?: { hasText?: string }): Locator;
  waitForTimeout(ms: number): Promise<void>;
  screenshot(options: { path: string }): Promise<void>;
}
interface Frame {
  locator(selector: string, options?: { hasText?: string }): Locator;
}
export interface Workbench {
  page: Page;
  runCommand(title: string): Promise<void>;
  statusBarText(): Promise<string>;
  webviewFrame(): Frame;
  close(): Promise<void>;
}

const require = createRequire(__filename);
const toolchain = resolve(process.env.QUORUM_TOOLCHAIN ?? join(__dirname, '..', '..', 'shared', 'toolchain'));

/** shared/toolchain/workbench.cjs: a real VS Code in headless Chromium, with the .vsix installed as a user would. */
export const openWorkbench: (options: object) => Promise<Workbench> = (require(join(toolchain, 'workbench.cjs')) as { openWorkbench(o: object): Promise<Workbench> }).openWorkbench;

/** A walk's output folder (argv[2], else `fallback`), its log and its steps: a step that throws is logged, and the walk goes on. */
export function walkLog(fallback: string): { out: string; say(line: string): void; step(name: string, fn: () => Promise<void>): Promise<void>; save(): void } {
  const out = resolve(process.argv[2] ?? fallback);
  mkdirSync(out, { recursive: true });
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    console.log(line);
  };
  return {
    out,
    say,
    async step(name, fn) {
      try {
        await fn();
      } catch (e) {
        say(`!! ${name}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
      }
    },
    save: () => writeFileSync(join(out, 'walk.log'), lines.join('\n') + '\n'),
  };
}
