/*
 * SVG renders in a process of its own, one at a time: a checked document arrives as a message
 * ({ id, svg, width, height }) and its PNG goes back ({ id, png } or { id, refused, reason }).
 * A process, not a worker thread, because librsvg can spend minutes inside one native call on a
 * legal document (a path that crosses itself tens of thousands of times); only killing the
 * process stops that. The process stays for the next render (svg/render.ts keeps a few warm) and
 * leaves when its parent does.
 */
import sharp from 'sharp';

sharp.concurrency(1);
sharp.cache(false);

interface RenderRequest {
  id: number;
  svg: string;
  width: number;
  height: number;
}

process.on('disconnect', () => process.exit(0));
process.on('message', (request: RenderRequest) => {
  void render(request).then((answer) => process.send!(answer));
});

async function render({ id, svg, width, height }: RenderRequest) {
  try {
    const { data, info } = await sharp(Buffer.from(svg, 'utf8'), { limitInputPixels: width * height, failOn: 'error' })
      .flatten({ background: '#ffffff' })
      .toColourspace('b-w')
      .png()
      .toBuffer({ resolveWithObject: true });
    if (info.width !== width || info.height !== height || info.channels !== 1) {
      return {
        id,
        refused: false,
        reason: `rendered ${info.width}x${info.height}x${info.channels}, expected ${width}x${height}x1`,
      };
    }
    return { id, png: data };
  } catch (error) {
    // The renderer refused the document (librsvg's own reason).
    return { id, refused: true, reason: String(error).slice(0, 1000) };
  }
}
