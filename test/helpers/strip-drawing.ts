import sharp from 'sharp';

interface StripPx {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A drawing as an agent would make it from a job's hints: the strip in black where `stripPx` puts
 * it on the recommended canvas, with a row of round openings along its middle.
 */
export async function stripWithHoles(
  drawing: { recommendedPixels: string; stripPx: StripPx },
  holes: number,
): Promise<Buffer> {
  const [width, height] = drawing.recommendedPixels.split('x').map(Number) as [number, number];
  const s = drawing.stripPx;
  const r = Math.min(s.height * 0.28, (s.width / holes) * 0.3);
  const circles = Array.from({ length: holes }, (_, i) => {
    const cx = s.x + ((i + 0.5) * s.width) / holes;
    return `<circle cx="${cx.toFixed(1)}" cy="${(s.y + s.height / 2).toFixed(1)}" r="${r.toFixed(1)}" fill="#fff"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/><rect x="${s.x}" y="${s.y}" width="${s.width}" height="${s.height}" fill="#000"/>${circles}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
