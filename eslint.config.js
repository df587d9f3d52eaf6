import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'src/gen/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/gen/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
  // Layering (docs/ARCHITECTURE.md): the database is wrapped once; the node library never
  // imports the CLI; a module reaches another only through interfaces (type imports), never its
  // keeper, keys or other runtime code.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/gen/**', 'src/node/store/db/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'classic-level', message: 'only src/node/store/db/ imports classic-level' }] }],
    },
  },
  {
    files: ['src/node/**/*.ts'],
    ignores: ['src/node/store/db/**', 'src/node/modules/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'classic-level', message: 'only src/node/store/db/ imports classic-level' }],
          patterns: [{ group: ['**/cli/**', '**/commands/**'], message: 'the node library never imports the CLI (src/cli, src/commands)' }],
        },
      ],
    },
  },
  {
    files: ['src/node/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'classic-level', message: 'only src/node/store/db/ imports classic-level' }],
          patterns: [
            { group: ['**/cli/**', '**/commands/**'], message: 'the node library never imports the CLI (src/cli, src/commands)' },
            {
              group: ['../*/**', '!../shared/**', '!../../**'],
              allowTypeImports: true,
              message: 'a module reaches another module only through interfaces (its expectedKeepers.ts; type imports only)',
            },
          ],
        },
      ],
    },
  },
  // The ibc module is nested (core/client, core/host, lightclients/tendermint …): inside it the
  // submodules import each other; other modules stay reachable through type imports only.
  {
    files: ['src/node/modules/ibc/*/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'classic-level', message: 'only src/node/store/db/ imports classic-level' }],
          patterns: [
            { group: ['**/cli/**', '**/commands/**'], message: 'the node library never imports the CLI (src/cli, src/commands)' },
            {
              group: ['../../*/**', '!../../shared/**', '!../../../**'],
              allowTypeImports: true,
              message: 'a module reaches another module only through interfaces (its expectedKeepers.ts; type imports only)',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/node/modules/ibc/*/*/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'classic-level', message: 'only src/node/store/db/ imports classic-level' }],
          patterns: [
            { group: ['**/cli/**', '**/commands/**'], message: 'the node library never imports the CLI (src/cli, src/commands)' },
            {
              group: ['../../../*/**', '!../../../shared/**', '!../../../../**'],
              allowTypeImports: true,
              message: 'a module reaches another module only through interfaces (its expectedKeepers.ts; type imports only)',
            },
          ],
        },
      ],
    },
  },
  {
    // CommonJS fixtures run as plain Node child processes (clients written the way their users write them).
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly', Buffer: 'readonly', console: 'readonly', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
