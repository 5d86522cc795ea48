// ESLint with typescript-eslint's strict, type-aware rules over everything we write (src, tests, benchmarks,
// scripts). `npm run lint`; `npm test` runs it first. Two options are relaxed, each for a stated reason:
// - restrict-template-expressions allows numbers: `${n} tokens` is how every message here says a count.
// - no-confusing-void-expression ignores arrow shorthands: `(e) => emit(e)` for a void callback is idiomatic.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'eval/**', 'test/fixtures/**', '**/*.mjs', '**/*.cjs', 'esbuild.js'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
    },
  },
);
