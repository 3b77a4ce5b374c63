import sharp from 'sharp';
import type { Geometry, Validation } from '../../contract/submission.ts';
import { beforeCrop, changesPanel, planInsets } from './changes.ts';
import { drawingLuminance, type KeptDrawing } from './drawing-copy.ts';
import { legendPanel } from './legend.ts';
import { marksFor, marksSvg } from './marks.ts';
import { markedPlaces, numberedFindings } from './numbering.ts';
import { stripScale, type CopyView, type Place } from './placing.ts';
import { pictureStyle, type PictureStyle } from './style.ts';

export interface PictureInput {
  drawing: KeptDrawing;
  validation: Pick<Validation, 'errors' | 'warnings'>;
  /** A ready submission's stored cutting SVG and geometry: each repair is then shown before and after. */
  cut?: { svg: string; geometry: Geometry } | undefined;
  /** `manufacturing.minMetalMm`: the change insets show at least a few of these around a place. */
  minMetalMm: number;
  /** `image.recommendedPixels.width`: the picture is never wider. */
  maxWidthPx: number;
}

/**
 * The findings picture: the agent's drawing (the kept greyscale copy) with every finding's
 * places circled and numbered (errors solid vermillion, warnings dashed blue; numbers in the
 * order of errors then warnings), a legend of numbers and codes below, and for a ready
 * submission with repairs, each repaired place before (the drawing) and after (the cut, drawn
 * from the stored cutting SVG). At most `maxWidthPx` wide; a PNG.
 */
export async function renderFindingsPicture(input: PictureInput, style: PictureStyle = pictureStyle): Promise<Buffer> {
  return (await drawFindingsPicture(input, style)).png;
}

/** Where things are on the picture, in its pixels: for tests that look at what was drawn where. */
export interface PictureLayout {
  width: number;
  height: number;
  /** The drawing copy: an upload pixel (x, y) is at (left + x * kx, top + y * ky). */
  drawing: { left: number; top: number; width: number; height: number; kx: number; ky: number };
  insets: {
    no: number;
    code: string;
    size: number;
    before: { left: number; top: number };
    after: { left: number; top: number };
  }[];
}

/** `renderFindingsPicture` with the layout of what it drew. */
export async function drawFindingsPicture(
  input: PictureInput,
  style: PictureStyle = pictureStyle,
): Promise<{ png: Buffer; layout: PictureLayout }> {
  const copy = await loadCopy(input.drawing, input.maxWidthPx);
  const numbered = numberedFindings(input.validation);
  const { marks, dropped } = marksFor(numbered, copy.kx, copy.ky, style);

  const width = Math.max(copy.w, Math.min(style.minWidthPx, input.maxWidthPx));
  const dx = Math.round((width - copy.w) / 2);
  const legend = legendPanel(numbered, copy.h, width, { unmarked: dropped }, style);
  let bottom = copy.h + legend.height;

  let changes: Awaited<ReturnType<typeof changesPanel>> | undefined;
  let crops: { input: Buffer; left: number; top: number }[] = [];
  if (input.cut) {
    const { insets, more } = planInsets(numbered, copy.kx, copy.ky, input.minMetalMm, style);
    const places = numbered.flatMap(({ finding }) => markedPlaces(finding)) as Place[];
    const scale = insets.length > 0 ? stripScale(copy, places, input.cut.geometry) : undefined;
    if (scale) {
      changes = changesPanel(insets, more, input.cut.geometry, input.cut.svg, bottom, width, style);
      bottom += changes.height;
      crops = await Promise.all(
        changes.crops.map(async (spot) => ({
          input: await beforeCrop(copy, scale, spot.inset, style.insetPx),
          left: spot.left,
          top: spot.top,
        })),
      );
    }
  }

  const overlay =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${bottom}" viewBox="0 0 ${width} ${bottom}">` +
    `<line x1="0" y1="${copy.h + 0.5}" x2="${width}" y2="${copy.h + 0.5}" stroke="${style.ruleColour}" stroke-width="1"/>` +
    marksSvg(marks, dx, 0, style) +
    legend.svg +
    (changes?.svg ?? '') +
    '</svg>';

  const png = await sharp({ create: { width, height: bottom, channels: 3, background: '#ffffff' } })
    .composite([
      { input: copy.png, left: dx, top: 0 },
      ...crops,
      // Crops first: the panel's frames and rings are drawn over them.
      { input: Buffer.from(overlay), left: 0, top: 0 },
    ])
    .png({ compressionLevel: 9, palette: true, colours: 256, dither: 0 })
    .toBuffer();
  const layout: PictureLayout = {
    width,
    height: bottom,
    drawing: { left: dx, top: 0, width: copy.w, height: copy.h, kx: copy.kx, ky: copy.ky },
    insets: (changes?.crops ?? []).map((spot) => ({
      no: spot.inset.no,
      code: spot.inset.code,
      size: style.insetPx,
      before: { left: spot.left, top: spot.top },
      after: { left: spot.afterLeft, top: spot.top },
    })),
  };
  return { png, layout };
}

/** The kept copy as luminance, scaled down again if the configured width shrank since it was kept. */
async function loadCopy(drawing: KeptDrawing, maxWidthPx: number): Promise<CopyView & { png: Buffer }> {
  let png = drawing.png;
  const meta = await sharp(png).metadata();
  if ((meta.width ?? 0) > maxWidthPx) png = await sharp(png).resize({ width: maxWidthPx }).png().toBuffer();
  const { w, h, lum } = await drawingLuminance(png);
  return { png, w, h, lum, kx: w / drawing.source.width, ky: h / drawing.source.height };
}
