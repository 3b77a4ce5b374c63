/**
 * Times our potrace port (`core/pipeline/potrace/`) against the npm `potrace` package as the
 * pipeline ran it before (its private methods, `test/helpers/potrace-reference.ts`), on the very
 * bitmaps the pipeline traces for the bench designs, alternating the two in one process:
 * `npx node --expose-gc --max-semi-space-size=16 bench/potrace-timing.ts [rounds]`.
 * Also checks that both give the same paths on those bitmaps.
 */
import { readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

interface Traced {
  w: number;
  h: number;
  bits: Uint8Array;
  options: { alphaMax: number; optCurve: boolean };
}

const tracedBitmaps: Traced[] = [];
(globalThis as any).tracedBitmaps = tracedBitmaps;

// The pipeline's own call into the tracer is wrapped to keep a copy of each bitmap it traces.
const real = new URL('../core/pipeline/potrace/paths.ts', import.meta.url).href;
const capture =
  'data:text/javascript,' +
  encodeURIComponent(`import { potracePaths as real } from ${JSON.stringify(real)};
export function potracePaths(w, h, fill, isTraced, options, visit) {
  const bits = new Uint8Array(w * h);
  fill(bits);
  globalThis.tracedBitmaps.push({ w, h, bits: bits.slice(), options });
  return real(w, h, (d) => d.set(bits), isTraced, options, visit);
}`);
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    const fromCapture = context.parentURL?.startsWith('data:') ?? false;
    return resolved.url === real && !fromCapture ? { ...resolved, url: capture, format: 'module' } : resolved;
  },
});

const { defaultConfig } = await import('../core/config.ts');
const { analyseDesign } = await import('../core/pipeline/analyse.ts');
const { potracePaths } = await import('../core/pipeline/potrace/paths.ts');
const { referencePotracePaths } = await import('../test/helpers/potrace-reference.ts');

const benchDir = join(import.meta.dirname, '../../shared/bench');
const designs = [
  { name: 'strip, 100 openings', file: 'strip-100-holes-1536x1024.png', lengthMm: 155, widthMm: 19.97, despeckle: 0 },
  { name: 'lace cuff, 530 holes', file: 'lace-530-holes-1536x1024.png', lengthMm: 165, widthMm: 35, despeckle: 0 },
  {
    name: '24 MP lace cuff, 530 holes',
    file: 'lace-530-holes-24mp-6000x4000.png',
    lengthMm: 165,
    widthMm: 35,
    despeckle: 0,
  },
  {
    name: 'dense lace, 2200 openings',
    file: 'lace-2200-holes-1536x1024.png',
    lengthMm: 118,
    widthMm: 78.25,
    despeckle: 0.00001,
  },
  {
    name: '24 MP lace, 8500 openings',
    file: 'lace-24mp-8192x2929.png',
    lengthMm: 155,
    widthMm: 55.05,
    despeckle: 0.00001,
  },
];
const rounds = Number(process.argv[2] ?? 9);
const gc = (globalThis as any).gc as (() => void) | undefined;

type Tracer = typeof potracePaths;
const ours: Tracer = potracePaths;
const pkg: Tracer = (w, h, fill, isTraced, options, visit) =>
  referencePotracePaths(w, h, fill, isTraced, options, visit, { untracedColumn: false });

/** Runs one tracer over the bitmaps; returns milliseconds and a fingerprint of every path. */
function run(tracer: Tracer, bitmaps: Traced[]): { ms: number; paths: string[] } {
  const paths: string[] = [];
  gc?.();
  const t0 = performance.now();
  for (const { w, h, bits, options } of bitmaps) {
    const isTraced = (x: number, y: number) => bits[y * w + x] === 1;
    tracer(
      w,
      h,
      (d) => d.set(bits),
      isTraced,
      options,
      (p) => {
        const c = p.curve.c.filter((_, k) => k % 3 !== 0 || p.curve.tag[(k / 3) | 0] === 'CURVE');
        paths.push(
          `${p.sign}${p.area} ${p.pt.length} ${p.curve.tag.join('')} ${c.map((q) => `${q.x},${q.y}`).join(' ')}`,
        );
      },
    );
  }
  return { ms: performance.now() - t0, paths };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

console.log(`| design | bitmaps traced | paths | package (old) ms | our port (new) ms | new/old | same paths |`);
console.log(`| --- | --- | ---: | ---: | ---: | ---: | --- |`);
for (const d of designs) {
  tracedBitmaps.length = 0;
  const config = structuredClone(defaultConfig);
  if (d.despeckle) config.manufacturing.despeckleAreaFraction = d.despeckle;
  const png = readFileSync(join(benchDir, d.file));
  const header = { width: 0, height: 0, bitDepth: 8, colorType: 0, interlaced: false };
  await analyseDesign({ png, header, productType: 'bracelet', lengthMm: d.lengthMm, widthMm: d.widthMm, config });
  const bitmaps = [...tracedBitmaps];
  const old: number[] = [];
  const now: number[] = [];
  let same = true;
  let count = 0;
  // One untimed round each to warm up, then alternate, starting with each in turn.
  for (let r = -1; r < rounds; r++) {
    const order: [Tracer, number[]][] =
      r % 2 === 0
        ? [
            [pkg, old],
            [ours, now],
          ]
        : [
            [ours, now],
            [pkg, old],
          ];
    const results = order.map(([tracer, times]) => {
      const result = run(tracer, bitmaps);
      if (r >= 0) times.push(result.ms);
      return result;
    });
    const [a, b] = results.map((x) => x.paths);
    same &&= a!.length === b!.length && a!.every((p, i) => p === b![i]);
    count = a!.length;
  }
  const sizes = bitmaps.map((b) => `${b.w}x${b.h}`).join(', ');
  const o = median(old);
  const n = median(now);
  console.log(
    `| ${d.name} | ${sizes} | ${count} | ${o.toFixed(1)} | ${n.toFixed(1)} | ${(n / o).toFixed(2)}x | ${same ? 'yes' : 'NO'} |`,
  );
}
