/**
 * Draws a test design PNG for a job: a black strip with a row of round holes, on white, at the
 * job's ratio, placed where `job.drawing.stripPx` says. With `--pinch` it adds a slot that narrows
 * to one pixel in the middle, which the service refuses (422 OPENING_TOO_SMALL), to see findings.
 *
 *   npx tsx docs/examples/make-design.ts design.png --ratio 7.735 [--holes 20] [--pinch]
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
export async function drawDesign(strip: StripPx, { holes = 20, pinch = false } = {}): Promise<Buffer> {
  const midY = Math.round(strip.height / 2);
  const midX = Math.round(strip.width / 2);
  const centres = Array.from({ length: holes }, (_, i) => Math.round(((i + 0.5) * strip.width) / holes));
  const shapes = centres
    // Leave room in the middle for the pinched slot.
    .filter((x) => !pinch || Math.abs(x - midX) > 60)
    .map((x) => `<circle cx="${x}" cy="${midY}" r="9" fill="#fff"/>`);
  if (pinch) {
    // A 91 x 9 px slot whose middle 9 px close to a single open row: under 0.2 mm wide there.
    shapes.push(
      `<rect x="${midX - 45}" y="${midY - 4}" width="91" height="9" fill="#fff"/>`,
      `<rect x="${midX - 4}" y="${midY - 4}" width="9" height="4" fill="#000"/>`,
      `<rect x="${midX - 4}" y="${midY + 1}" width="9" height="4" fill="#000"/>`,
    );
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CANVAS.width}" height="${CANVAS.height}" shape-rendering="crispEdges">` +
    `<rect width="${CANVAS.width}" height="${CANVAS.height}" fill="#fff"/>` +
    `<g transform="translate(${strip.x} ${strip.y})">` +
    `<rect width="${strip.width}" height="${strip.height}" fill="#000"/>${shapes.join('')}</g></svg>`;
  return sharp(Buffer.from(svg)).flatten({ background: '#fff' }).toColourspace('b-w').png().toBuffer();
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      ratio: { type: 'string' },
      holes: { type: 'string', default: '20' },
      pinch: { type: 'boolean', default: false },
    },
  });
  const out = positionals[0];
  const ratio = Number(values.ratio);
  if (!out || !(ratio > 0)) {
    console.error(
      'usage: npx tsx docs/examples/make-design.ts <out.png> --ratio <job.drawing.ratio> [--holes N] [--pinch]',
    );
    process.exit(2);
  }
  const png = await drawDesign(stripForRatio(ratio), { holes: Number(values.holes), pinch: values.pinch });
  await writeFile(out, png);
  console.error(`${out}: ${png.length} bytes`);
}

// Run as a script, not when imported by quickstart.ts.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
