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

// What src/sim may import from packages: no UI framework, no storage, no Node built-ins.
const simPackagePatterns = [
  { group: ['react', 'react-*', 'react/*', '@xyflow/*', 'motion', 'motion/*', 'zustand', 'zustand/*', 'idb', 'idb/*'], message: 'src/sim knows no UI framework or storage.' },
  { group: ['node:*', 'fs', 'path', 'os', 'child_process', 'worker_threads'], message: 'src/sim runs in browser and Node alike.' },
];

// The layers: ui → protocol ← worker → sim, and server → sim (with the worker's host pieces). One pattern per layer names what it may not
// import (test/lint/layers.test.ts proves each one refuses a wrong import).
const layer = {
  sim: { group: ['**/ui/**', '**/worker/**', '**/protocol/**', '**/server/**'], message: 'Dependencies point one way: sim depends on nothing.' },
  protocol: { group: ['**/ui/**', '**/worker/**', '**/sim/**', '**/server/**', '!**/sim/messages/', '!**/sim/messages/**'], message: 'src/protocol is the contract: it imports no layer.' },
  // The message map (kind → payload type) is declared once in the model; the contract re-exports it as types.
  protocolMessages: { group: ['**/sim/messages/**'], allowTypeImports: true, message: 'src/protocol takes src/sim/messages as types only (import type).' },
  worker: { group: ['**/ui/**', '**/server/**'], message: 'The worker hosts the sim for the UI: it imports src/protocol and src/sim only.' },
  workerTest: { group: ['**/server/**', '**/ui/**/*.tsx'], message: 'Worker tests may use the UI\'s pure helpers, never its components or the server.' },
  // The host pieces live once and run in both places (DESIGN.md §6): the server hosts the worker's host pieces
  // (src/worker/host/) for attached pages, but never the browser's bindings (the Worker entry, IndexedDB, saved clusters).
  server: {
    group: ['**/ui/**', '**/worker/sim.worker.ts', '**/worker/persistence.ts', '**/worker/saved-clusters*.ts'],
    message: 'The server hosts the sim and the worker\'s host pieces (src/worker/host/ …), never the browser\'s bindings or the UI.',
  },
  ui: { group: ['**/sim/**', '**/worker/**', '**/server/**'], message: 'The UI talks to the worker through src/protocol only.' },
};

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
      'no-restricted-imports': ['error', { patterns: [...simPackagePatterns, layer.sim] }],
    },
  },
  {
    // Models k8s.io/client-go standing apart from k8s.io/apiserver: clients (client-go and the components
    // built on it) share only the wire types and credentials (src/sim/wire) and the api vocabulary.
    files: ['src/sim/client/**/*.ts', 'src/sim/controllers/**/*.ts', 'src/sim/scheduler/**/*.ts', 'src/sim/kubelet/**/*.ts'],
    ignores: ['**/*.test.ts', '**/testing.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [...simPackagePatterns, layer.sim,
          { group: ['**/apiserver/**', '**/apiserver/*'], message: 'Clients stand alone: they share src/sim/wire with kube-apiserver, never its code.' }],
      }],
    },
  },
  {
    files: ['src/sim/**/*.test.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src/protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [layer.protocol, layer.protocolMessages] }],
    },
  },
  {
    files: ['src/worker/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [layer.worker] }] },
  },
  {
    // Tests of the worker drive the UI's pure plan and label helpers against the real worker.
    files: ['src/worker/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [layer.workerTest] }] },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [layer.server] }] },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', {
        patterns: [
          layer.ui,
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
    files: ['bench/**/*.ts', 'scripts/**/*.ts', 'e2e/**/*.ts', 'src/server/**/*.ts', 'test/**/*.ts', '*.config.{ts,js}'],
    languageOptions: { globals: globals.node },
  },
);
