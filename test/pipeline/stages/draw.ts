/**
 * Small hand-made working rasters for the stage tests, drawn in millimetres at the pipeline's
 * 0.05 mm a pixel, and what the tests compare of a stage's findings.
 */
import { expect } from 'vitest';
import type { Finding } from '../../../core/contract/finding.ts';
import { findingFacts, type FindingContext } from '../../../core/pipeline/findings/wording.ts';
import type { StripRaster } from '../../../core/pipeline/raster/raster.ts';
import { stageOptions } from '../../../core/pipeline/stage-options.ts';

export const MM_PER_PX = 0.05;
export const floors = { minOpeningMm: 0.2, minMetalMm: 0.6 };
export const ctx: FindingContext = { ...floors, pxPerMm: 1 / MM_PER_PX };

const options = stageOptions(floors);
export const fillOptions = options.fill(0.05);
export const frameOptions = options.frame;
export const validateOptions = options.validate;
export const finalCutOptions = options.finalCut;

/** A strip `lengthMm` x `widthMm`, all metal. */
export function metalStrip(lengthMm: number, widthMm: number): StripRaster {
  const w = Math.round(lengthMm / MM_PER_PX);
  const h = Math.round(widthMm / MM_PER_PX);
  return { w, h, data: new Uint8Array(w * h).fill(1), mmPerPxX: MM_PER_PX, mmPerPxY: MM_PER_PX };
}

/** Sets every pixel whose centre lies in the disc to `value` (0 air, 1 metal). */
export function disc(r: StripRaster, cxMm: number, cyMm: number, radiusMm: number, value: 0 | 1): StripRaster {
  for (let y = 0; y < r.h; y++) {
    for (let x = 0; x < r.w; x++) {
      if (Math.hypot((x + 0.5) * MM_PER_PX - cxMm, (y + 0.5) * MM_PER_PX - cyMm) <= radiusMm)
        r.data[y * r.w + x] = value;
    }
  }
  return r;
}

/** Sets every pixel whose centre lies in the rectangle to `value`. */
export function rect(r: StripRaster, x0Mm: number, y0Mm: number, wMm: number, hMm: number, value: 0 | 1): StripRaster {
  for (let y = 0; y < r.h; y++) {
    for (let x = 0; x < r.w; x++) {
      const cx = (x + 0.5) * MM_PER_PX;
      const cy = (y + 0.5) * MM_PER_PX;
      if (cx >= x0Mm && cx < x0Mm + wMm && cy >= y0Mm && cy < y0Mm + hMm) r.data[y * r.w + x] = value;
    }
  }
  return r;
}

/**
 * Sets every pixel whose centre lies in a straight-sided wedge to `value`: its base `baseMm` across
 * centred on (x, y), its point `lengthMm` away, up the strip turned clockwise by `turnDeg`.
 */
export function wedge(
  r: StripRaster,
  xMm: number,
  yMm: number,
  baseMm: number,
  lengthMm: number,
  turnDeg: number,
  value: 0 | 1,
): StripRaster {
  const a = (turnDeg * Math.PI) / 180;
  const [ux, uy] = [Math.sin(a), -Math.cos(a)];
  for (let y = 0; y < r.h; y++) {
    for (let x = 0; x < r.w; x++) {
      const dx = (x + 0.5) * MM_PER_PX - xMm;
      const dy = (y + 0.5) * MM_PER_PX - yMm;
      const along = dx * ux + dy * uy;
      const across = Math.abs(dy * ux - dx * uy);
      if (along >= 0 && along <= lengthMm && across <= (baseMm / 2) * (1 - along / lengthMm))
        r.data[y * r.w + x] = value;
    }
  }
  return r;
}

/**
 * Runs `stage` on `input` and checks that it left the input as it was (its pixels, size and scale):
 * every stage returns its own output.
 */
export function leavesInputAlone<T>(input: StripRaster, stage: (input: StripRaster) => T): T {
  const before = { ...input, data: input.data.slice() };
  const out = stage(input);
  expect(input, 'the stage changed its input').toEqual(before);
  return out;
}

/** What the golden files hold of a finding: its code, severity, places, details and the facts it was worded from (not its wording, tested in findings.test.ts). */
export const findingsOf = (findings: readonly Finding[]) =>
  findings.map((f) => ({
    code: f.code,
    severity: f.severity,
    facts: findingFacts(f),
    locations: f.locations ?? [],
    ...(f.details ? { details: f.details } : {}),
  }));

export const codes = (findings: readonly Finding[]): string[] => findings.map((f) => f.code);

export const metalPixels = (r: { data: Uint8Array }): number => r.data.reduce((n, v) => n + v, 0);
