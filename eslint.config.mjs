// ESLint with typescript-eslint's strict, type-aware rules over everything we write (src, tests, benchmarks,
// scripts). `npm run lint`; `npm test` runs it first. Some options are relaxed, each for a stated reason:
// - restrict-template-expressions allows numbers: `${n} tokens` is how every message here says a count.
// - no-confusing-void-expression ignores arrow shorthands and void functions returning a void call:
//   `(e) => emit(e)` and `return this.onEvent(e)` in a void method are idiomatic.
// - no-unused-vars ignores names that start with `_` and the siblings of a rest: `({ secret: _s, ...kept })` is how
//   a field is left out of a copy.
// - prefer-promise-reject-errors lets a caught `unknown` be passed on as it is (wrapping it would change it).
// In tests only, no-unnecessary-condition and no-non-null-assertion are off: a test reaches into a result with
// `?.` or `!` where the assertion that follows is what says it is there (and a teardown guards what a failed
// set-up left undefined).
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
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true, ignoreVoidReturningFunctions: true }],
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unnecessary-condition': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Untrusted text reaches VS Code's notifications, questions, quick picks and progress notifications only through
    // the Prompter, which redacts and escapes it (test/unit/adapter/prompter.test.ts); only its VS Code side calls
    // the window. A MarkdownString is never fully trusted: at most an explicit list of commands.
    files: ['src/vscode/**/*.ts'],
    ignores: ['src/vscode/windowPrompter.ts'],
    rules: {
      'no-restricted-syntax': ['error',
        {
          selector: "MemberExpression:matches([object.name='window'], [object.property.name='window'])[property.name=/^(show(Error|Warning|Information)Message|showInputBox|showQuickPick|createInputBox|createQuickPick|withProgress)$/]",
          message: 'Show it through the Prompter (src/vscode/prompter.ts): it redacts and escapes every text it shows.',
        },
        {
          selector: "AssignmentExpression[left.property.name='isTrusted']:not([right.value=false]):not([right.type='ObjectExpression']), Property[key.name='isTrusted'][value.value=true]",
          message: 'A MarkdownString is trusted at most for an explicit list of commands: isTrusted = { enabledCommands: [...] }.',
        },
      ],
    },
  },
);
