import sharp from 'sharp';

/** Long side of the preview image sent to the model, in pixels. */
const LONG_SIDE_PX = 1200;
const MARGIN_PX = 16;

/**
 * The preview SVG rendered to PNG on white: hosts show PNG reliably, while an `image/svg+xml`
 * block breaks some of them. The SVG is the pipeline's own (no scripts or external references).
 */
export async function previewPng(svg: string): Promise<Buffer> {
  const source = Buffer.from(svg, 'utf8');
  const { width = LONG_SIDE_PX, height = LONG_SIDE_PX } = await sharp(source).metadata();
  const density = Math.min(2400, Math.max(1, (72 * LONG_SIDE_PX) / Math.max(width, height, 1)));
  return sharp(source, { density })
    .flatten({ background: '#ffffff' })
    .extend({ top: MARGIN_PX, bottom: MARGIN_PX, left: MARGIN_PX, right: MARGIN_PX, background: '#ffffff' })
    .png()
    .toBuffer();
}
