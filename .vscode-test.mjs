// @vscode/test-cli configuration. On machines that can download VS Code, test-cli downloads it; where
// VSCODE_TEST_EXECUTABLE is set (offline machines: ../shared/toolchain/env.sh), that executable is used.
import { defineConfig } from '@vscode/test-cli';

const executable = process.env.VSCODE_TEST_EXECUTABLE;

export default defineConfig({
  label: 'integration',
  files: 'out/test/integration/**/*.test.js',
  workspaceFolder: './test/fixtures/workspace',
  skipExtensionDependencies: true,
  launchArgs: ['--disable-extensions', '--skip-welcome', '--skip-release-notes'],
  mocha: { ui: 'bdd', timeout: 60000, color: false },
  ...(executable ? { useInstallation: { fromPath: executable } } : {}),
});
