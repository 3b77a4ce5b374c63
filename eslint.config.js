import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const v2Only = 'Use the v2 SDK: @modelcontextprotocol/server or /client.';
const v1Sdk = {
  paths: [{ name: '@modelcontextprotocol/sdk', message: v2Only }],
  patterns: [{ group: ['@modelcontextprotocol/sdk/*'], message: v2Only }],
};

/** The composition root, which only entry points (server.ts, mcp/stdio.ts, tests, bench) import. */
const compositionRoot = {
  group: ['**/service.ts'],
  message: 'Only entry points import the composition root (service.ts); it hands the parts in.',
};

/**
 * The adapters do not import each other: each takes what it needs of the others as parameters, and
 * only the composition root (service.ts) builds them all and wires them together.
 */
const adapterBoundary = (self, others, { files = [`${self}/**/*.ts`], entryPoint = false } = {}) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: v1Sdk.paths,
        patterns: [
          ...v1Sdk.patterns,
          {
            group: others.map((other) => `**/${other}/**`),
            message: `${self} is an adapter: what it needs of ${others.join(' and ')} comes in as parameters (service.ts wires them).`,
          },
          // An entry point picks the real clock and randomness from their own modules.
          ...(entryPoint
            ? []
            : [
                {
                  group: ['**/core/**', '!**/core/index.ts'],
                  message: `${self} is an adapter: it uses core through its public surface, core/index.ts (add what it needs there).`,
                },
                compositionRoot,
              ]),
        ],
      },
    ],
  },
});

/** What core may not import: a transport, an adapter, or the composition root. */
const coreBoundary = [
  { group: ['hono', 'hono/*', '@hono/*'], message: 'core imports no transport (hono).' },
  { group: ['@modelcontextprotocol/*'], message: 'core imports no transport (MCP).' },
  { group: ['**/http/**', '**/mcp/**', '**/web/**'], message: 'core does not import its adapters.' },
  compositionRoot,
  { group: ['node:http', 'node:https', 'http', 'https'], message: 'core imports no transport.' },
];

/**
 * The pipeline's folders are its layers, lowest first: primitives (raster, potrace, vector), the
 * findings' words, measuring, repairing, the final check of the cutting file, the stages, then the
 * orchestrator (analyse.ts) and the worker runtime. A folder imports only from layers below it.
 */
const PIPELINE_LAYERS = [
  ['raster', 'potrace'],
  ['vector'],
  ['findings'],
  ['measure'],
  ['repair'],
  ['final-check'],
  ['stages'],
  ['runtime'],
];
const pipelineLayers = PIPELINE_LAYERS.flatMap((layer, i) =>
  layer.map((folder) => {
    const higher = [...layer.filter((peer) => peer !== folder), ...PIPELINE_LAYERS.slice(i + 1).flat()];
    const layering = higher.length
      ? [
          {
            group: higher.flatMap((other) => [`../${other}/**`, `**/pipeline/${other}/**`]),
            message: `core/pipeline/${folder} does not import ${higher.join(', ')}: a folder imports only from the layers below it (PIPELINE_LAYERS, eslint.config.js).`,
          },
        ]
      : [];
    const orchestrator =
      folder === 'runtime'
        ? []
        : [{ group: ['**/pipeline/analyse.ts', '../analyse.ts'], message: 'Only the runtime runs the orchestrator.' }];
    return {
      files: [`core/pipeline/${folder}/**/*.ts`],
      rules: { 'no-restricted-imports': ['error', { patterns: [...coreBoundary, ...layering, ...orchestrator] }] },
    };
  }),
);

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
    rules: { 'no-restricted-imports': ['error', { paths: v1Sdk.paths, patterns: v1Sdk.patterns }] },
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
  // http may import web (its pages): they are one site.
  adapterBoundary('http', ['mcp']),
  adapterBoundary('web', ['http', 'mcp']),
  adapterBoundary('mcp', ['http', 'web']),
  // The stdio server's entry point: it builds its core with the composition root.
  adapterBoundary('mcp', ['http', 'web'], { files: ['mcp/stdio.ts'], entryPoint: true }),
  {
    // core owns the domain and imports no transport: http, mcp and web are adapters over it.
    files: ['core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: coreBoundary }],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Time comes from the injected Clock.' },
        { object: 'Math', property: 'random', message: 'Randomness comes from the injected Randomness.' },
        { object: 'crypto', property: 'randomUUID', message: 'Ids come from the injected Randomness.' },
      ],
    },
  },
  // After the core block: for the pipeline's folders these rules take the place of its import rule.
  ...pipelineLayers,
);
