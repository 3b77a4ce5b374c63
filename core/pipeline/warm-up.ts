import sharp from 'sharp';
import { defaultConfig } from '../config.ts';
import { analyseDesign } from './analyse.ts';

/**
 * A worker's first analyses run in the interpreter and cost two to three times the later ones,
 * so each worker analyses a small synthetic strip at startup, before its first upload: a strip
 * with round openings, an island to bridge, two holes with a thin web between them, a hole against
 * the edge, a corner cut away and a speck outside to drop, so every stage's hot loops are compiled.
 * Five times: the web search and the final check reach their steady speed only after about four
 * analyses (measured in a worker on the 100-hole strip: with three warm-up runs its first uploads
 * took 137-160, 106-140 and 82-135 ms against 85-95 ms once warm; with five, 112-130 then 85-97
 * ms). The five cost about 0.65 s of a worker's start. The outcome is thrown away; nothing the
 * pipeline keeps between analyses depends on it.
 */
const WARM_UP_RUNS = 5;

export async function warmUp(): Promise<void> {
  const w = 1200;
  const h = 200;
  const lum = new Uint8Array(w * h).fill(255);
  const paint = (x0: number, y0: number, x1: number, y1: number, v: number): void => {
    for (let y = y0; y < y1; y++) lum.fill(v, y * w + x0, y * w + x1);
  };
  const disc = (cx: number, cy: number, r: number): void => {
    for (let y = cy - r; y <= cy + r; y++) {
      for (let x = cx - r; x <= cx + r; x++) if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r) lum[y * w + x] = 255;
    }
  };
  paint(20, 10, 1180, 190, 0);
  for (let cx = 80; cx < 900; cx += 60) {
    disc(cx, 60, 20);
    disc(cx, 140, 20);
  }
  paint(960, 50, 1060, 150, 255);
  paint(1000, 90, 1020, 110, 0);
  disc(1100, 60, 20);
  disc(1100, 104, 20);
  disc(940, 34, 20);
  for (let y = 10; y < 60; y++) paint(1180 - (60 - y), y, 1180, y + 1, 255);
  paint(2, 2, 6, 6, 0);
  const png = await sharp(lum, { raw: { width: w, height: h, channels: 1 } })
    .png()
    .toBuffer();
  for (let run = 0; run < WARM_UP_RUNS; run++) {
    await analyseDesign({
      png,
      header: { width: w, height: h, bitDepth: 8, colorType: 0, interlaced: false },
      productType: 'bracelet',
      lengthMm: 64.44,
      widthMm: 10,
      config: defaultConfig,
    });
  }
}
