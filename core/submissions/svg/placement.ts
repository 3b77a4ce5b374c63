import type { CoreError } from '../../errors.ts';
import { err, ok, type Result } from '../../result.ts';
import { badViewBox, SVG_NS } from './refusals.ts';
import type { Attribute } from './rules.ts';

export interface Canvas {
  width: number;
  height: number;
}

const NUMBER = String.raw`[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?`;
const VIEW_BOX = new RegExp(`^\\s*(${NUMBER})[\\s,]+(${NUMBER})[\\s,]+(${NUMBER})[\\s,]+(${NUMBER})\\s*$`);
const LENGTH = new RegExp(`^\\s*(${NUMBER})\\s*(px|mm|cm|in|pt|pc)?\\s*$`);
/** CSS pixels per unit: without a viewBox, user units are these pixels. */
const PX_PER_UNIT: Record<string, number> = { px: 1, mm: 96 / 25.4, cm: 96 / 2.54, in: 96, pt: 96 / 72, pc: 16 };

/** The root's size and viewBox attributes, replaced; everything else on the root is kept. */
const REPLACED = new Set(['width', 'height', 'viewBox', 'x', 'y']);

/**
 * The start of the document the renderer gets: an `<svg>` of the canvas's size that is wholly
 * ours (an inline `!important` size outranks any size the SVG's CSS gives `svg` elements), with
 * crisp edges, which the agent's root inherits unless it sets `shape-rendering` itself: black on
 * white stays two-tone as a PNG drawn by hand would. The agent's root sits inside it.
 */
export const canvasStart = ({ width, height }: Canvas): string =>
  `<svg xmlns="${SVG_NS}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"` +
  ` shape-rendering="crispEdges" style="width: ${width}px !important; height: ${height}px !important">`;
export const canvasEnd = '</svg>';

/**
 * The agent's root `<svg>`'s attributes for drawing it on the canvas (inside `canvasStart`): its
 * width and height become the canvas's, so its own viewBox is fitted into it as any viewer fits it
 * (its preserveAspectRatio, by default uniformly scaled and centred, white around). Without a
 * viewBox the SVG's width and height in absolute units (px, mm, ...) stand for it; without those
 * either, the SVG is taken to be drawn in canvas pixels.
 */
export function placeOnCanvas(root: Attribute[], canvas: Canvas): Result<Attribute[], CoreError> {
  const plain = (local: string) => root.find((a) => a.uri === '' && a.local === local)?.value;
  const viewBox = plain('viewBox');
  let box: string;
  if (viewBox !== undefined) {
    const numbers = VIEW_BOX.exec(viewBox)?.slice(1).map(Number);
    if (!numbers || !numbers.every(Number.isFinite) || numbers[2]! <= 0 || numbers[3]! <= 0) {
      return err(badViewBox(viewBox));
    }
    box = numbers.join(' ');
  } else {
    const width = lengthPx(plain('width'));
    const height = lengthPx(plain('height'));
    box = width && height ? `0 0 ${width} ${height}` : `0 0 ${canvas.width} ${canvas.height}`;
  }
  const kept = root.filter((a) => !(a.uri === '' && REPLACED.has(a.local)));
  return ok([
    ...kept,
    attribute('x', '0'),
    attribute('y', '0'),
    attribute('width', String(canvas.width)),
    attribute('height', String(canvas.height)),
    attribute('viewBox', box),
  ]);
}

/** A length in pixels, or undefined for a missing, relative (%, em) or non-positive one. */
function lengthPx(value: string | undefined): number | undefined {
  const match = value === undefined ? null : LENGTH.exec(value);
  if (!match) return undefined;
  const px = Number(match[1]) * PX_PER_UNIT[match[2] ?? 'px']!;
  return Number.isFinite(px) && px > 0 ? px : undefined;
}

const attribute = (local: string, value: string): Attribute => ({ name: local, prefix: '', local, uri: '', value });
