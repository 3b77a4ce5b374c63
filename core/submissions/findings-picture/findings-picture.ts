import sharp from 'sharp';
import type { Geometry, Validation } from '../../contract/submission.ts';
import { beforeCrop, changesPanel, planInsets } from './changes.ts';
import { drawingLuminance, type KeptDrawing } from './drawing-copy.ts';
import { legendPanel } from './legend.ts';
import { marksFor, marksSvg, type Mark } from './marks.ts';
import { markedPlaces, numberedFindings } from './numbering.ts';
import type { StripInImage } from '../../pipeline/types.ts';
import { scaleOfPlacement, stripScale, type CopyView, type Place } from './placing.ts';
import { pictureStyle, type PictureStyle } from './style.ts';

export interface PictureInput {
  drawing: KeptDrawing;
  validation: Pick<Validation, 'errors' | 'warnings'>;
  /** A ready submission's stored cutting SVG and geometry: each repair is then shown before and after. */
  cut?: { svg: string; geometry: Geometry } | undefined;
  /** Where the strip lies in the upload, as stored with the submission (absent on older ones). */
  placement?: StripInImage | undefined;
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
  const rows = shownRows(copy, marks, style);
  const shownH = rows.bottom - rows.top;
  const legend = legendPanel(numbered, shownH, width, { unmarked: dropped }, style);
  let bottom = shownH + legend.height;

  let changes: Awaited<ReturnType<typeof changesPanel>> | undefined;
  let crops: { input: Buffer; left: number; top: number }[] = [];
  if (input.cut) {
    const { insets, more } = planInsets(numbered, copy.kx, copy.ky, input.minMetalMm, style);
    const places = numbered.flatMap(({ finding }) => markedPlaces(finding)) as Place[];
    const scale =
      insets.length === 0
        ? undefined
        : input.placement
          ? scaleOfPlacement(copy, input.placement)
          : stripScale(copy, places, input.cut.geometry);
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
    `<line x1="0" y1="${shownH + 0.5}" x2="${width}" y2="${shownH + 0.5}" stroke="${style.ruleColour}" stroke-width="1"/>` +
    marksSvg(marks, dx, -rows.top, style) +
    legend.svg +
    (changes?.svg ?? '') +
    '</svg>';

  const png = await sharp({ create: { width, height: bottom, channels: 3, background: '#ffffff' } })
    .composite([
      { input: await shownPart(copy, rows), left: dx, top: 0 },
      ...crops,
      // Crops first: the panel's frames and rings are drawn over them.
      { input: Buffer.from(overlay), left: 0, top: 0 },
    ])
    .png({ compressionLevel: 9, palette: true, colours: 256, dither: 0 })
    .toBuffer();
  const layout: PictureLayout = {
    width,
    height: bottom,
    drawing: { left: dx, top: -rows.top, width: copy.w, height: shownH, kx: copy.kx, ky: copy.ky },
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

/** Luminance below this is ink (decisions §7): rows without any are blank paper. */
const INK_BELOW = 192;

/**
 * The copy's rows the picture shows: blank paper above and below the design is left out (it
 * only makes the picture taller, for a model that pays for every pixel and a phone that shrinks
 * it), keeping a margin and every ring and number whole. All rows when there is no ink at all.
 */
function shownRows(copy: CopyView, marks: readonly Mark[], style: PictureStyle): { top: number; bottom: number } {
  let first = -1;
  let last = -1;
  for (let y = 0; y < copy.h; y++) {
    const row = copy.lum.subarray(y * copy.w, (y + 1) * copy.w);
    if (row.some((v) => v < INK_BELOW)) {
      if (first < 0) first = y;
      last = y;
    }
  }
  if (first < 0) return { top: 0, bottom: copy.h };
  let top = first - style.padPx;
  let bottom = last + 1 + style.padPx;
  for (const m of marks) {
    const reach = m.ringR + style.haloStrokePx / 2 + style.badgeHeightPx + 2;
    top = Math.min(top, Math.floor(m.cy - reach));
    bottom = Math.max(bottom, Math.ceil(m.cy + m.ringR + style.haloStrokePx / 2 + 2));
  }
  return { top: Math.max(0, top), bottom: Math.min(copy.h, bottom) };
}

/** The shown rows of the copy, as a PNG to composite. */
const shownPart = (copy: CopyView & { png: Buffer }, rows: { top: number; bottom: number }): Promise<Buffer> =>
  rows.top === 0 && rows.bottom === copy.h
    ? Promise.resolve(copy.png)
    : sharp(copy.png)
        .extract({ left: 0, top: rows.top, width: copy.w, height: rows.bottom - rows.top })
        .png()
        .toBuffer();

/** The kept copy as luminance, scaled down again if the configured width shrank since it was kept. */
async function loadCopy(drawing: KeptDrawing, maxWidthPx: number): Promise<CopyView & { png: Buffer }> {
  let png = drawing.png;
  const meta = await sharp(png).metadata();
  if ((meta.width ?? 0) > maxWidthPx) png = await sharp(png).resize({ width: maxWidthPx }).png().toBuffer();
  const { w, h, lum } = await drawingLuminance(png);
  return { png, w, h, lum, kx: w / drawing.source.width, ky: h / drawing.source.height };
}
