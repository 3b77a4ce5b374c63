import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'db/migrations/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Outbound HTTP goes through an injected client.' }],
    },
  },
  {
    // The v1 SDK stops at protocol 2025-11-25; it is installed only for the conformance suite.
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@modelcontextprotocol/sdk', message: 'Use the v2 SDK: @modelcontextprotocol/server or /client.' },
          ],
          patterns: [
            {
              group: ['@modelcontextprotocol/sdk/*'],
              message: 'Use the v2 SDK: @modelcontextprotocol/server or /client.',
            },
          ],
        },
      ],
    },
  },
  {
    // Plain JavaScript run by node directly (the stdio launcher, the runtime memory script).
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', fetch: 'readonly', setTimeout: 'readonly', URL: 'readonly' },
    },
  },
  {
    files: ['bench/**/*.mjs'],
    rules: { 'no-restricted-globals': 'off' },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // core owns the domain and imports no transport: http, mcp and web are adapters over it.
    files: ['core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['hono', 'hono/*', '@hono/*'], message: 'core imports no transport (hono).' },
            { group: ['@modelcontextprotocol/*'], message: 'core imports no transport (MCP).' },
            { group: ['**/http/**', '**/mcp/**', '**/web/**'], message: 'core does not import its adapters.' },
            { group: ['node:http', 'node:https', 'http', 'https'], message: 'core imports no transport.' },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Time comes from the injected Clock.' },
        { object: 'Math', property: 'random', message: 'Randomness comes from the injected Randomness.' },
        { object: 'crypto', property: 'randomUUID', message: 'Ids come from the injected Randomness.' },
      ],
    },
  },
);
