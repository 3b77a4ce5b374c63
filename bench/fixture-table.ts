/**
 * Prints the design fixtures' outcomes through the real pipeline as a Markdown table, for
 * docs/pipeline.md: `npx node bench/fixture-table.ts`.
 */
import { defaultConfig } from '../core/config.ts';
import { analyseDesign } from '../core/pipeline/analyse.ts';
import { designFixtures } from '../test/fixtures/pipeline/designs.ts';

console.log('| fixture | job (mm) | answer | errors | warnings | cuts | width (mm) | stretch |');
console.log('| --- | --- | --- | --- | --- | ---: | ---: | ---: |');
for (const f of designFixtures) {
  const out = await analyseDesign({
    png: await f.png(),
    header: { width: 1536, height: 1024, bitDepth: 8, colorType: 0, interlaced: false },
    productType: f.job.productType,
    lengthMm: f.job.lengthMm,
    widthMm: f.job.widthMm,
    config: defaultConfig,
  });
  if (out.kind !== 'analysed') {
    console.log(`| ${f.name} | ${f.job.lengthMm} x ${f.job.widthMm} | ${out.code} | | | | | |`);
    continue;
  }
  const g = out.product?.geometry;
  const codes = (list: { code: string }[]) => [...new Set(list.map((x) => x.code))].join(', ');
  console.log(
    `| ${f.name} | ${f.job.lengthMm} x ${f.job.widthMm} | ${out.product ? '200 ready' : '422'} | ${codes(out.errors)} | ${codes(out.warnings)} | ${g?.cuts ?? ''} | ${g?.widthMm ?? ''} | ${g?.stretch ?? ''} |`,
  );
}
