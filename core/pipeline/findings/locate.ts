import type { ComponentBox } from '../raster/components.ts';
import type { Location } from './wording.ts';
import type { StripRaster } from '../raster/raster.ts';

/** A component's place on the strip in millimetres, for a finding's `locations`. */
export function locate(box: ComponentBox, raster: StripRaster, minRadiusMm: number): Location {
  const round = (v: number) => Number(v.toFixed(2));
  const halfW = ((box.x1 - box.x0 + 1) * raster.mmPerPxX) / 2;
  const halfH = ((box.y1 - box.y0 + 1) * raster.mmPerPxY) / 2;
  return {
    x: round(box.cx * raster.mmPerPxX),
    y: round(box.cy * raster.mmPerPxY),
    r: round(Math.max(minRadiusMm, Math.hypot(halfW, halfH))),
  };
}

/**
 * At most this many locations per finding: every place a design can sensibly have (a finding says
 * what the engine changed or refuses, and an agent fixes all of it in one round), with a bound so
 * an answer stays small when a whole design is off in the same way.
 */
export const MAX_LOCATIONS = 500;
