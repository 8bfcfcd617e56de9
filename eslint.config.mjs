// ESLint over every TypeScript file, with typescript-eslint's type-checked recommended rules: they
// catch what the compiler lets through (floating promises, unsafe `any`, needless assertions).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.vscode-test/**', 'reports/**', '.stryker-tmp/**', '**/*.mjs', '**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Output and catalog checks match control characters on purpose, to strip or refuse them.
      'no-control-regex': 'off',
      // An async function without await still turns a throw into a rejection, which callers rely on.
      '@typescript-eslint/require-await': 'off',
      // `const { dropped: _dropped, ...rest } = x` leaves a field out of a copy.
      // A `let` assigned once, after a closure that reads it was made (a signal handler).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // A caught failure, or one kept for later, is thrown as it came, whatever its type.
      '@typescript-eslint/only-throw-error': ['error', { allowRethrowing: true, allowThrowingUnknown: true }],
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
);
