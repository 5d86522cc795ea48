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
export const openWorkbench: (options: object) => Promise<Workbench> = (require(join(toolchain, 'workbench.cjs')) as { openWorkbench: (o: object) => Promise<Workbench> }).openWorkbench;

/** A walk's output folder (argv[2], else `fallback`), its log and its steps: a step that throws is logged, and the walk goes on. */
export function walkLog(fallback: string): { out: string; say: (line: string) => void; step: (name: string, fn: () => Promise<void>) => Promise<void>; save: () => void } {
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

/** A user's workbench: the packaged quorum.vsix installed, `folder` open, Quorum on a loopback gateway (no cache, no verifier), the dark theme. */
export function userWorkbench(folder: string, gatewayUrl: string): Promise<Workbench> {
  return openWorkbench({
    vsix: resolve('quorum.vsix'),
    folder,
    settings: {
      'quorum.gateway.baseUrl': gatewayUrl, 'quorum.cache.ttlMinutes': 0, 'quorum.review.verify': 'off',
      'workbench.colorTheme': 'Default Dark Modern', 'window.zoomLevel': 0, 'security.workspace.trust.enabled': false,
    },
  });
}

/** Waits until Quorum is active: its cost item is in the status bar (a loaded machine takes a while). */
export async function untilQuorumActive(wb: Workbench, timeoutMs = 90_000): Promise<void> {
  for (let waited = 0; waited < timeoutMs && !/\$\d/.test(await wb.statusBarText()); waited += 1000) await wb.page.waitForTimeout(1000);
}

/** Sets the gateway's API key the way a user does: the command, the input box, Enter. */
export async function setApiKey(wb: Workbench, key: string): Promise<void> {
  await wb.runCommand('Quorum: Set Gateway API Key');
  const input = wb.page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(key);
  await wb.page.keyboard.press('Enter');
  await wb.page.waitForTimeout(800);
}

/** Opens a file from Quick Open, so that the focus is in its editor. */
export async function quickOpen(wb: Workbench, file: string): Promise<void> {
  await wb.page.keyboard.press('Control+P');
  await wb.page.locator('.quick-input-widget input').fill(file);
  await wb.page.waitForTimeout(800);
  await wb.page.keyboard.press('Enter');
  await wb.page.waitForTimeout(1500);
}
