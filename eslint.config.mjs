// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/**
 * The layers of src/, lowest first: a folder may import its own files and those of folders of a lower rank only
 * (docs/architecture.md). Folders of one rank do not depend on each other's internals; madge checks for circles.
 */
const layerRank = {
  core: 0,
  contract: 1,
  tokens: 2,
  summarizers: 2,
  metrics: 2,
  visibility: 2,
  logging: 2,
  config: 3,
  archive: 4,
  codec: 4,
  activities: 5,
  workflows: 6,
  client: 7,
  server: 7,
  cli: 8,
};

/** Folders whose code runs in Temporal's deterministic workflow sandbox (the workflow bundle). */
const bundled = new Set(['core', 'contract', 'workflows']);

/**
 * The rooms of src/workflows and the rooms each may import (besides the files at the top of src/workflows): the
 * conversation workflow and the embeddable Compactor both stand on the one fold step, and neither on the other.
 */
const workflowRooms = {
  shared: [],
  fold: ['shared'],
  compactor: ['fold', 'shared'],
  conversation: ['fold', 'shared'],
};

/** Deepest folder below a layer's folder that the generated rules cover (src/core/plan/policies is 2). */
const MAX_DEPTH = 3;

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** @returns the `@typescript-eslint/no-restricted-imports` blocks: one per folder of src/ and depth below it. */
function importRules() {
  const blocks = [];
  for (const [folder, rank] of Object.entries(layerRank)) {
    for (let depth = 0; depth <= MAX_DEPTH; depth++) {
      const up = `^(\\.\\./){${depth + 1}}`;
      const patterns = [];
      if (folder === 'core') {
        patterns.push({
          regex: up,
          message: 'src/core is the bottom layer: it imports nothing from other src folders.',
        });
      } else {
        const higher = Object.keys(layerRank).filter((f) => layerRank[f] > rank);
        if (higher.length > 0) {
          patterns.push({
            regex: `${up}(${higher.map(escape).join('|')})(/|$)`,
            message: `src/${folder} must not import a higher layer (see the layers in docs/architecture.md).`,
          });
        }
        // The CLI is the one layer above the worker: its worker and dev commands run it.
        if (folder !== 'cli')
          patterns.push({
            regex: `${up}(worker)$`,
            message: 'Nothing in src/ imports the worker (the top of the layers).',
          });
      }
      if (folder === 'workflows') {
        patterns.push({
          regex: `${up}(activities|archive|codec|config|tokens|summarizers|metrics)(/|$)`,
          allowTypeImports: true,
          message:
            'Workflow code imports activities (and what only they use) as `import type` only: no I/O in the bundle.',
        });
      }
      if (bundled.has(folder)) patterns.push(...determinismPatterns);
      if (folder === 'core') patterns.push(purityPattern);
      const block = (files, extra = []) => ({
        files,
        rules: {
          'no-restricted-imports': 'off',
          '@typescript-eslint/no-restricted-imports': [
            'error',
            { paths: bundled.has(folder) ? determinismPaths : [], patterns: [...patterns, ...extra] },
          ],
        },
      });
      blocks.push(block([`src/${folder}/${'*/'.repeat(depth)}*.ts`]));
      if (folder === 'workflows' && depth === 1) {
        for (const [room, allowed] of Object.entries(workflowRooms)) {
          const others = Object.keys(workflowRooms).filter((r) => r !== room && !allowed.includes(r));
          if (others.length === 0) continue;
          const roomPattern = {
            regex: `^\\.\\./(${others.join('|')})(/|$)`,
            message: `src/workflows/${room} may import the rooms ${allowed.join(', ') || '(none)'} only.`,
          };
          blocks.push(block([`src/workflows/${room}/*.ts`], [roomPattern]));
        }
      }
    }
  }
  return blocks;
}

/** Modules the workflow bundle (and the pure core) must not import: they do I/O or are not deterministic. */
const determinismPaths = [
  ...nodeBuiltins,
  'openai',
  'gpt-tokenizer',
  'js-tiktoken',
  '@temporalio/activity',
  '@temporalio/worker',
  '@temporalio/client',
].map((name) => ({
  name,
  message: 'Not allowed in workflow, contract or core code: it must stay deterministic and free of I/O.',
}));

const purityPattern = {
  group: ['@temporalio/*', 'openai', 'openai/*', 'gpt-tokenizer', 'gpt-tokenizer/*', 'node:*'],
  message: 'The core is pure: no Temporal, no openai, no tokenizer, no Node builtins.',
};

const determinismPatterns = [
  {
    group: ['gpt-tokenizer/*', 'js-tiktoken/*', 'openai/*'],
    message: 'Not allowed in workflow, contract or core code: it must stay deterministic and free of I/O.',
  },
];

export default tseslint.config(
  { ignores: ['node_modules/**', '.tools/**', '.data/**', 'lib/**', 'dist/**', 'eslint.config.mjs'] },
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
  // Import rules, one block per folder and depth (a later block replaces an earlier one's options for the same rule,
  // so each file gets exactly one): the layers' arrows point down, and code in the workflow bundle stays deterministic.
  ...importRules(),
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
