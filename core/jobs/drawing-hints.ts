import { despeckleAreaMm2, type Config } from '../config.ts';
import type { Drawing } from '../contract/job.ts';

/**
 * Where to draw: the strip at the job's ratio, centred inside the recommended canvas with a
 * white margin, and the manufacturing floors converted to pixels of that strip.
 */
export function drawingHints(lengthMm: number, widthMm: number, config: Config): Drawing {
  const { width: canvasW, height: canvasH } = config.image.recommendedPixels;
  const margin = config.image.canvasMarginPx;
  const ratio = lengthMm / widthMm;
  const availW = canvasW - 2 * margin;
  const availH = canvasH - 2 * margin;
  const fitsByWidth = ratio >= availW / availH;
  const stripW = Math.round(fitsByWidth ? availW : availH * ratio);
  const stripH = Math.round(fitsByWidth ? availW / ratio : availH);
  const mmPerPx = lengthMm / stripW;
  return {
    ratio: round(ratio, 4),
    recommendedPixels: `${canvasW}x${canvasH}`,
    orientation: 'landscape',
    minOpeningAreaMm2: round(despeckleAreaMm2(config.manufacturing, lengthMm, widthMm), 4),
    stripPx: {
      x: Math.round((canvasW - stripW) / 2),
      y: Math.round((canvasH - stripH) / 2),
      width: stripW,
      height: stripH,
    },
    mmPerPx: round(mmPerPx, 5),
    minOpeningPx: round(config.manufacturing.minOpeningMm / mmPerPx, 2),
    minMetalPx: round(config.manufacturing.minMetalMm / mmPerPx, 2),
  };
}

const round = (value: number, digits: number): number => Number(value.toFixed(digits));
