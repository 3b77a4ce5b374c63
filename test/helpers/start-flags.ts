import packageJson from '../../package.json' with { type: 'json' };

/**
 * The flags `npm start` gives node (package.json's start script), so that every process the tests
 * and benchmarks start as the service runs as the service does: `--max-semi-space-size=16` keeps
 * Node 24's young generations at Node 20's size (docs/performance.md, memory).
 */
export const START_NODE_FLAGS: readonly string[] = (() => {
  const flags = /\bnode((?: --\S+)*) server\.ts\b/.exec(packageJson.scripts.start)?.[1];
  if (flags === undefined) throw new Error(`package.json's start script does not run node … server.ts`);
  return flags.trim().split(/\s+/).filter(Boolean);
})();
