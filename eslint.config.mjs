// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

export default tseslint.config(
  { ignores: ['node_modules/**', '.tools/**', '.data/**', 'lib/**', 'eslint.config.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox, and so does the pure core it imports:
    // no Node builtins, no tokenizer, no network client.
    files: ['src/workflows/**/*.ts', 'src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...nodeBuiltins,
            'openai',
            'gpt-tokenizer',
            'js-tiktoken',
            '@temporalio/activity',
            '@temporalio/worker',
            '@temporalio/client',
          ].map((name) => ({
            name,
            message: 'Not allowed in workflow or core code: it must stay deterministic and free of I/O.',
          })),
          patterns: ['gpt-tokenizer/*', 'js-tiktoken/*', 'openai/*'],
        },
      ],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@temporalio/*', 'openai', 'openai/*', 'gpt-tokenizer', 'gpt-tokenizer/*', 'node:*'],
              message: 'The core is pure: no Temporal, no openai, no tokenizer, no Node builtins.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // node:assert's functions are plain functions; mocha's `this` is typed by @types/mocha.
      '@typescript-eslint/unbound-method': 'off',
    },
  }
);
