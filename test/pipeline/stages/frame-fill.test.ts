import { describe, expect, it } from 'vitest';
import { frameStrip } from '../../../core/pipeline/stages/frame.ts';
import { fillUncuttableOpenings } from '../../../core/pipeline/stages/uncuttable-openings.ts';
import type { StripRaster } from '../../../core/pipeline/raster/raster.ts';
import { stageOptions } from '../../../core/pipeline/stage-options.ts';

const floors = { minOpeningMm: 0.2, minMetalMm: 0.6 };
const ctx = { ...floors, pxPerMm: 20 };
const { fill, frame: frameOptions } = stageOptions(floors);
const fillOptions = fill(0.05);

/** A 20 x 6 mm strip at 0.05 mm a pixel: a small round hole 0.5 mm across, and a 3 mm square opening holding a 1 mm island. */
function strip(): StripRaster {
  const w = 400;
  const h = 120;
  const data = new Uint8Array(w * h).fill(1);
  const disc = (cx: number, cy: number, r: number, value: number) => {
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= r * r) data[y * w + x] = value;
  };
  disc(60, 60, 5, 0);
  for (let y = 30; y < 90; y++) data.fill(0, y * w + 250, y * w + 310);
  disc(280, 60, 10, 1);
  return { w, h, data, mmPerPxX: 0.05, mmPerPxY: 0.05 };
}

const holePixels = (r: StripRaster) => {
  let n = 0;
  for (let y = 40; y < 80; y++) for (let x = 40; x < 80; x++) n += 1 - r.data[y * r.w + x]!;
  return n;
};

/** Two 3 mm high windows either side of a 0.15 mm bar, the left one's far side slanted at 45° (a staircase). */
function windows(): StripRaster {
  const w = 400;
  const h = 120;
  const data = new Uint8Array(w * h).fill(1);
  for (let y = 30; y < 90; y++) {
    data.fill(0, y * w + 60 + (90 - y), y * w + 150);
    data.fill(0, y * w + 153, y * w + 253);
  }
  return { w, h, data, mmPerPxX: 0.05, mmPerPxY: 0.05 };
}

const farSide = (r: StripRaster) => {
  let n = 0;
  for (let y = 0; y < 120; y++) for (let x = 0; x < 130; x++) n += 1 - r.data[y * r.w + x]!;
  return n;
};

describe('framing fills only what it changed', () => {
  it('widens a bar between two windows without moving the far, slanted side of either', () => {
    const uncuttable = fillUncuttableOpenings(windows(), fillOptions, ctx);
    const filled = farSide(uncuttable.raster);
    const framed = frameStrip(uncuttable.raster, frameOptions, ctx, uncuttable.air);
    expect(framed.thickened.length).toBeGreaterThan(0);
    expect(farSide(framed.raster)).toBe(filled);
  });

  it('bridges an island without taking another pixel off the rim of a small round hole elsewhere', () => {
    const uncuttable = fillUncuttableOpenings(strip(), fillOptions, ctx);
    expect(uncuttable.errors).toEqual([]);
    const filled = holePixels(uncuttable.raster);
    expect(filled).toBeGreaterThan(50);
    const framed = frameStrip(uncuttable.raster, frameOptions, ctx, uncuttable.air);
    expect(framed.warnings.map((w) => w.code)).toContain('ISLAND_BRIDGED');
    expect(holePixels(framed.raster)).toBe(filled);
  });
});
