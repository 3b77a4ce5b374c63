/**
 * A binary raster: `data[y * w + x]` is 1 for metal, 0 for air. The working raster of the
 * pipeline covers exactly the framed strip, so pixel (x, y) spans x..x+1 and y..y+1 in pixel
 * units, and `mmPerPxX` / `mmPerPxY` turn pixel units into millimetres on the strip.
 */
export interface Mask {
  w: number;
  h: number;
  data: Uint8Array;
}

export interface StripRaster extends Mask {
  mmPerPxX: number;
  mmPerPxY: number;
  /**
   * The drawing's shades the working raster was thresholded from (at least 128 is metal), as
   * resampling made them; never changed after. Where a stage changed a pixel, `data` no longer
   * agrees with it (see `effectiveShade`). Absent on rasters drawn by hand.
   */
  shade?: Uint8Array;
}

/** Millimetres between the centres of pixels a and b of a strip raster. */
export const pixelDistanceMm = (raster: StripRaster, a: number, b: number): number => {
  const { w } = raster;
  return Math.hypot(((a % w) - (b % w)) * raster.mmPerPxX, (Math.floor(a / w) - Math.floor(b / w)) * raster.mmPerPxY);
};
