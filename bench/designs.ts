/**
 * The pipeline benchmark's designs (`../shared/bench`, described in its README) and the job each
 * is uploaded into, sized before any service starts, with Debian's potrace C program timed once
 * per design on the same thresholded bitmap for comparison (it does not depend on the tree).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';

/** `default`: the contract's configuration, designs a real job can reach; `stress`: a lowered despeckle fraction. */
export type DesignGroup = 'default' | 'stress';

export interface BenchDesign {
  name: string;
  /** Absolute path of the PNG. */
  file: string;
  group: DesignGroup;
  lengthMm: number;
  widthMm: number;
  /** A 24-megapixel upload, during which `GET /capabilities` is timed. */
  probe: boolean;
  /** Median of three potrace C runs; undefined when potrace is not installed. */
  potraceCMs: number | undefined;
}

const benchDir = resolve(import.meta.dirname, '../../shared/bench');

/** `ownRatio`: the drawing's own ratio, length up to 155 mm (as every job was sized before). */
const specs: {
  name: string;
  file: string;
  group: DesignGroup;
  job: 'ownRatio' | { lengthMm: number; widthMm: number };
}[] = [
  { name: 'strip, 100 openings', file: 'strip-100-holes-1536x1024.png', group: 'default', job: 'ownRatio' },
  {
    name: 'lace cuff, 530 holes',
    file: 'lace-530-holes-1536x1024.png',
    group: 'default',
    job: { lengthMm: 165, widthMm: 35 },
  },
  {
    name: '24 MP lace cuff, 530 holes',
    file: 'lace-530-holes-24mp-6000x4000.png',
    group: 'default',
    job: { lengthMm: 165, widthMm: 35 },
  },
  { name: 'dense lace, 2200 openings', file: 'lace-2200-holes-1536x1024.png', group: 'stress', job: 'ownRatio' },
  { name: '24 MP lace, 8500 openings', file: 'lace-24mp-8192x2929.png', group: 'stress', job: 'ownRatio' },
];

/** Every design with its job and its potrace C time; the service processes are not started yet. */
export async function prepareDesigns(): Promise<BenchDesign[]> {
  const potrace = spawnSync('potrace', ['--version']).status === 0;
  const designs: BenchDesign[] = [];
  for (const spec of specs) {
    const file = join(benchDir, spec.file);
    const bitmap = await threshold(readFileSync(file));
    const job = spec.job === 'ownRatio' ? ownRatioJob(bitmap) : spec.job;
    designs.push({
      name: spec.name,
      file,
      group: spec.group,
      ...job,
      probe: spec.file.includes('24mp'),
      potraceCMs: potrace ? potraceMs(bitmap) : undefined,
    });
  }
  return designs;
}

interface Bitmap {
  /** One byte per pixel, ink where under 128. */
  data: Buffer;
  w: number;
  h: number;
}

async function threshold(png: Buffer): Promise<Bitmap> {
  const { data, info } = await sharp(png, { limitInputPixels: 24e6 })
    .flatten({ background: '#fff' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, w: info.width, h: info.height };
}

/** Length up to 155 mm and the width that keeps the ink box's ratio. */
function ownRatioJob({ data, w, h }: Bitmap): { lengthMm: number; widthMm: number } {
  let x0 = w,
    y0 = h,
    x1 = -1,
    y1 = -1;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (data[y * w + x]! < 128) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
  const ratio = (x1 - x0 + 1) / (y1 - y0 + 1);
  const lengthMm = Math.min(155, Math.floor(80 * ratio * 0.98));
  return { lengthMm, widthMm: Number((lengthMm / ratio).toFixed(2)) };
}

function potraceMs({ data, w, h }: Bitmap): number {
  const dir = mkdtempSync(join(tmpdir(), 'bench-potrace-'));
  try {
    const rowBytes = Math.ceil(w / 8);
    const pbm = Buffer.alloc(rowBytes * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) if (data[y * w + x]! < 128) pbm[y * rowBytes + (x >> 3)]! |= 0x80 >> (x & 7);
    const file = join(dir, 'design.pbm');
    writeFileSync(file, Buffer.concat([Buffer.from(`P4\n${w} ${h}\n`), pbm]));
    const times = Array.from({ length: 3 }, () => {
      const t = performance.now();
      execFileSync('potrace', ['-s', '-o', join(dir, 'out.svg'), file]);
      return performance.now() - t;
    });
    return median(times);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
