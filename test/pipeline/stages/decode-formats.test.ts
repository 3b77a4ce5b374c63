import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../core/config.ts';
import { analyseDesign } from '../../../core/pipeline/analyse.ts';
import { classify, classifyDefaults } from '../../../core/pipeline/stages/classify.ts';
import { decodeLuminance } from '../../../core/pipeline/stages/decode.ts';
import { evilPngs, hasCorpus } from '../../helpers/corpus.ts';

const metalShare = async (file: string) => {
  const { dir } = evilPngs();
  const image = await decodeLuminance(readFileSync(join(dir, file)), 24_000_000);
  const { minOpeningMm, minMetalMm } = defaultConfig.manufacturing;
  const c = classify(image, classifyDefaults, { minOpeningMm, minMetalMm });
  return { share: c.metalCount / (image.w * image.h), fatal: c.fatal?.code, warnings: c.warnings.map((w) => w.code) };
};

describe.skipIf(!hasCorpus)('decoding every PNG kind to the same drawing', () => {
  it('reads 16-bit grey+alpha, RGBA, palette+tRNS, 16-bit RGB and Adam7 like the 8-bit baseline', async () => {
    const baseline = await metalShare('valid-baseline-1536x1024-g8.png');
    expect(baseline.fatal).toBeUndefined();
    expect(baseline.share).toBeGreaterThan(0.05);
    for (const file of [
      'valid-ga16-transparent-black-bg.png',
      'valid-rgba8-transparent-bg.png',
      'valid-palette-trns-2bit.png',
      'valid-rgb16.png',
      'valid-interlaced-adam7-rgb8.png',
    ]) {
      const variant = await metalShare(file);
      // Transparent backgrounds (even transparent black) flatten onto white: no full bleed.
      expect({ file, fatal: variant.fatal }).toEqual({ file, fatal: undefined });
      expect(Math.abs(variant.share - baseline.share), file).toBeLessThan(0.02);
    }
  });

  it('answers undecodable image data with an INVALID_FILE error finding', async () => {
    const { dir } = evilPngs();
    const outcome = await analyseDesign({
      png: readFileSync(join(dir, 'zlib-garbage.png')),
      header: { width: 1536, height: 1024, bitDepth: 8, colorType: 0, interlaced: false },
      productType: 'bracelet',
      lengthMm: 155,
      widthMm: 20,
      config: defaultConfig,
    });
    expect(outcome).toMatchObject({ kind: 'analysed', errors: [{ code: 'INVALID_FILE', severity: 'error' }] });
  });

  it('treats an all-black 24-megapixel bomb as NO_DESIGN_FOUND without running out of memory', async () => {
    const before = process.memoryUsage().rss;
    const bomb = await metalShare('bomb-24mp-8000x3000-g1.png');
    expect(bomb.fatal).toBe('NO_DESIGN_FOUND');
    expect(process.memoryUsage().rss - before).toBeLessThan(400e6);
  });
});
