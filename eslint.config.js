// Lint policy. The one rule that matters most: src/sim is deterministic. It may not read wall time,
// schedule host timers, use unseeded randomness, or reach the DOM, React or IndexedDB.
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const nondeterministicGlobals = [
  'Date', 'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'queueMicrotask',
  'requestAnimationFrame', 'performance', 'crypto', 'window', 'document', 'navigator', 'indexedDB',
  'localStorage', 'sessionStorage', 'Worker', 'fetch', 'process',
].map((name) => ({ name, message: 'src/sim is deterministic: use the engine clock, timers and seeded RNG.' }));

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'playwright-report/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Coroutines (Co<T>) are generators; one that happens not to wait is still a coroutine.
      'require-yield': 'off',
    },
  },
  {
    files: ['src/sim/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-globals': ['error', ...nondeterministicGlobals],
      'no-restricted-properties': ['error',
        { object: 'Math', property: 'random', message: 'Use the engine\'s seeded Rng.' },
        { object: 'globalThis', message: 'src/sim may not reach host globals.' }],
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['react', 'react-*', 'react/*', '@xyflow/*', 'motion', 'motion/*', 'zustand', 'zustand/*', 'idb', 'idb/*'], message: 'src/sim knows no UI framework or storage.' },
          { group: ['node:*', 'fs', 'path', 'os', 'child_process', 'worker_threads'], message: 'src/sim runs in browser and Node alike.' },
          { group: ['**/ui/**', '**/worker/**', '**/protocol/**', '**/server/**'], message: 'Dependencies point one way: sim depends on nothing.' },
        ],
      }],
    },
  },
  {
    files: ['src/sim/**/*.test.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['**/sim/**', '**/worker/**'], message: 'The UI talks to the worker through src/protocol only.' },
          { group: ['idb', 'idb/*'], message: 'Only src/worker/persistence.ts imports idb.' },
        ],
      }],
    },
  },
  {
    files: ['src/worker/**/*.ts'],
    languageOptions: { globals: globals.worker },
  },
  {
    files: ['bench/**/*.ts', 'e2e/**/*.ts', 'src/server/**/*.ts', 'test/**/*.ts', '*.config.{ts,js}'],
    languageOptions: { globals: globals.node },
  },
);
