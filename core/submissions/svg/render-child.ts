/*
 * One SVG render in a process of its own: the checked document on stdin, the PNG on stdout.
 * A process, not a worker thread, because librsvg can spend minutes inside one native call on a
 * legal document (a path that crosses itself tens of thousands of times); only killing the
 * process stops that. Exit 2: the renderer refused the document (reason on stderr).
 */
import sharp from 'sharp';

sharp.concurrency(1);
sharp.cache(false);

const [width, height] = process.argv.slice(2).map(Number) as [number, number];
const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);

try {
  const { data, info } = await sharp(Buffer.concat(chunks), { limitInputPixels: width * height, failOn: 'error' })
    .flatten({ background: '#ffffff' })
    .toColourspace('b-w')
    .png()
    .toBuffer({ resolveWithObject: true });
  if (info.width !== width || info.height !== height || info.channels !== 1) {
    process.stderr.write(`rendered ${info.width}x${info.height}x${info.channels}, expected ${width}x${height}x1`);
    process.exitCode = 3;
  } else {
    process.stdout.write(data);
  }
} catch (error) {
  process.stderr.write(String(error).slice(0, 1000));
  process.exitCode = 2;
}
