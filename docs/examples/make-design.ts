/**
 * Draws a test design PNG for a job: a black strip with a row of round holes, on white, at the
 * job's ratio, placed where `job.drawing.stripPx` says. With `--pinch` it adds a slot that narrows
 * to one pixel in the middle, which the service refuses (422 OPENING_TOO_SMALL), to see findings.
 * With `--defects` it draws four problems at once (a pinched slot, a metal disc floating in a
 * window, a 0.3 mm bar between two windows, a hole 0.3 mm from the edge on a 155 x 20 mm strip),
 * and with `--defects --fixed` the same drawing with all four fixed.
 *
 *   npx node docs/examples/make-design.ts design.png --ratio 7.735 [--holes 20] [--pinch | --defects [--fixed]]
 *
 * Run from the repository root (sharp comes from its node_modules).
 */
import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import sharp from 'sharp';

export interface StripPx {
  x: number;
  y: number;
  width: number;
  height: number;
}

const CANVAS = { width: 1536, height: 1024, marginPx: 64 };

/** The strip for a ratio: as large as fits inside the canvas minus the margin, centred (as `job.drawing.stripPx`). */
export function stripForRatio(ratio: number): StripPx {
  const availW = CANVAS.width - 2 * CANVAS.marginPx;
  const availH = CANVAS.height - 2 * CANVAS.marginPx;
  const fitsByWidth = ratio >= availW / availH;
  const width = Math.round(fitsByWidth ? availW : availH * ratio);
  const height = Math.round(fitsByWidth ? availW / ratio : availH);
  return { x: Math.round((CANVAS.width - width) / 2), y: Math.round((CANVAS.height - height) / 2), width, height };
}

/**
 * The design as PNG bytes: flat black on white, no anti-aliasing (`crispEdges`), no alpha.
 * Holes are round, 18 px across (about 2 mm on a 155 mm bracelet), evenly spread on the middle row.
 */
export async function drawDesign(
  strip: StripPx,
  { holes = 20, pinch = false, defects = false, fixed = false } = {},
): Promise<Buffer> {
  const midY = Math.round(strip.height / 2);
  const midX = Math.round(strip.width / 2);
  const centres = Array.from({ length: holes }, (_, i) => Math.round(((i + 0.5) * strip.width) / holes));
  // The four problems' places: an eighth, three eighths, five eighths and seven eighths along.
  const at = [1, 3, 5, 7].map((k) => Math.round((k * strip.width) / 8));
  const busy = defects ? at : pinch ? [midX] : [];
  const shapes = centres
    // Leave room for the slot and the other problems.
    .filter((x) => busy.every((b) => Math.abs(x - b) > 70))
    .map((x) => `<circle cx="${x}" cy="${midY}" r="9" fill="#fff"/>`);
  if (pinch) shapes.push(...slot(midX, midY, true));
  if (defects) shapes.push(...fourProblems(at, midY, fixed));
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CANVAS.width}" height="${CANVAS.height}" shape-rendering="crispEdges">` +
    `<rect width="${CANVAS.width}" height="${CANVAS.height}" fill="#fff"/>` +
    `<g transform="translate(${strip.x} ${strip.y})">` +
    `<rect width="${strip.width}" height="${strip.height}" fill="#000"/>${shapes.join('')}</g></svg>`;
  return sharp(Buffer.from(svg)).flatten({ background: '#fff' }).toColourspace('b-w').png().toBuffer();
}

const white = (x: number, y: number, w: number, h: number) =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#fff"/>`;
const black = (x: number, y: number, w: number, h: number) =>
  `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#000"/>`;

/** A 91 x 9 px slot; pinched, its middle 9 px close to a single open row: under 0.2 mm wide there. */
const slot = (cx: number, cy: number, pinched: boolean): string[] => [
  white(cx - 45, cy - 4, 91, 9),
  ...(pinched ? [black(cx - 4, cy - 4, 9, 4), black(cx - 4, cy + 1, 9, 4)] : []),
];

/** The four problems of `--defects` at the columns `at`, or each fixed as an agent would. */
function fourProblems(at: number[], midY: number, fixed: boolean): string[] {
  const [a, b, c, d] = at as [number, number, number, number];
  return [
    ...slot(a, midY, !fixed),
    // A disc of 21 px radius in a 109 x 127 px window, 33 px from every wall; fixed, a 10 px bar holds it.
    white(b - 54, midY - 63, 109, 127),
    `<circle cx="${b}" cy="${midY}" r="21" fill="#000"/>`,
    ...(fixed ? [black(b - 5, midY - 63, 10, 50)] : []),
    // Two 40 x 60 px windows either side of a 3 px bar; fixed, the bar is 8 px.
    white(c - 41 - (fixed ? 3 : 0), midY - 30, 40, 60),
    white(c + 2 + (fixed ? 2 : 0), midY - 30, 40, 60),
    // A hole of 9 px radius 3 px from the top edge; fixed, 10 px from it.
    `<circle cx="${d}" cy="${(fixed ? 10 : 3) + 9}" r="9" fill="#fff"/>`,
  ];
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      ratio: { type: 'string' },
      holes: { type: 'string', default: '20' },
      pinch: { type: 'boolean', default: false },
      defects: { type: 'boolean', default: false },
      fixed: { type: 'boolean', default: false },
    },
  });
  const out = positionals[0];
  const ratio = Number(values.ratio);
  if (!out || !(ratio > 0)) {
    console.error(
      'usage: npx node docs/examples/make-design.ts <out.png> --ratio <job.drawing.ratio> [--holes N] [--pinch | --defects [--fixed]]',
    );
    process.exit(2);
  }
  const png = await drawDesign(stripForRatio(ratio), {
    holes: Number(values.holes),
    pinch: values.pinch,
    defects: values.defects,
    fixed: values.fixed,
  });
  await writeFile(out, png);
  console.error(`${out}: ${png.length} bytes`);
}

// Run as a script, not when imported by quickstart.ts.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
