import sharp from 'sharp';
import { defaultConfig } from '../../config.ts';
import { analyseDesign } from '../analyse.ts';

/**
 * A worker's first analyses run in the interpreter and cost two to three times the later ones,
 * so each worker analyses a small synthetic strip at startup, before its first upload: a strip
 * with round openings, an island to bridge, two holes with a thin web between them, a hole against
 * the edge, a corner cut away, a slanted slot narrowing to a point and a speck outside to drop, so
 * every stage's hot loops are compiled. It is drawn with anti-aliased edges, as real drawings are:
 * the working raster is resampled from the drawing's shades, and a two-tone warm-up left that path
 * cold (the bench's 100-hole strip took 400, 275, 207 ms for its first uploads after it, 110 ms warm).
 * Five times: the web search and the final check reach their steady speed only after about four
 * analyses. The outcome is thrown away; nothing the pipeline keeps between analyses depends on it.
 */
const WARM_UP_RUNS = 5;

const WIDTH = 1200;
const HEIGHT = 200;

/** The warm-up drawing, in the canvas's pixels: black metal, white openings. */
function warmUpSvg(): string {
  const holes: string[] = [];
  for (let cx = 80; cx < 900; cx += 60)
    holes.push(`<circle cx="${cx}" cy="60" r="20"/><circle cx="${cx}" cy="140" r="20"/>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>
<path d="M20 10H1180V190H20Z M1120 10L1180 10L1180 70Z" fill="#000" fill-rule="evenodd"/>
<g fill="#fff">${holes.join('')}
<rect x="960" y="50" width="100" height="100"/>
<circle cx="1100" cy="60" r="20"/><circle cx="1100" cy="104" r="20"/><circle cx="940" cy="34" r="20"/>
<path d="M900 120L960 176L950 180Z"/></g>
<rect x="1000" y="90" width="20" height="20" fill="#000"/>
<rect x="2" y="2" width="4" height="4" fill="#000"/>
</svg>`;
}

export async function warmUp(): Promise<void> {
  const png = await sharp(Buffer.from(warmUpSvg())).greyscale().png().toBuffer();
  for (let run = 0; run < WARM_UP_RUNS; run++) {
    await analyseDesign({
      png,
      header: { width: WIDTH, height: HEIGHT, bitDepth: 8, colorType: 0, interlaced: false },
      productType: 'bracelet',
      lengthMm: 64.44,
      widthMm: 10,
      config: defaultConfig,
    });
  }
}
