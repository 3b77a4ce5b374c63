import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJob, roomyRateLimits, uploadPng } from '../helpers/flows.ts';
import { corpusDir, hasCorpus } from '../helpers/corpus.ts';
import { removeDir, startService, type TestService } from '../helpers/service.ts';

/** PngSuite images are at most 40x40 (some 1x1): lower the minimum side so they reach the decoder and the pipeline. */
const config = {
  image: { minShortSidePx: 1 },
  // Small square jobs keep the working raster small: these images test decoding, not scale.
  products: { bracelet: { lengthRangeMm: { min: 20, max: 280 } } },
  limits: roomyRateLimits,
};

let service: TestService;
beforeAll(async () => {
  service = await startService({ config, realPipeline: true });
});
afterAll(async () => {
  await service.close();
  removeDir(service.dir);
});

describe.skipIf(!hasCorpus)('PngSuite through the real pipeline', () => {
  it('gives every valid PngSuite image a normal answer (200 ready or 422 with findings), never a 5xx', async () => {
    const files = readdirSync(join(corpusDir, 'pngsuite')).filter((f) => /^[a-w].*\.png$/.test(f));
    expect(files.length).toBeGreaterThan(150);
    const answers: Record<string, string> = {};
    const send = async (file: string) => {
      const job = await openJob(service, { productType: 'bracelet', size: { lengthMm: 20 }, widthMm: 20 });
      const response = await uploadPng(service, job, readFileSync(join(corpusDir, 'pngsuite', file)));
      const body: any = await response.json();
      answers[file] = `${response.status} ${body.submission?.status ?? body.error?.code}`;
      if (response.status === 422) expect(body.submission.validation.errors.length).toBeGreaterThan(0);
    };
    // Two at a time, as many as the pool has workers here.
    for (let i = 0; i < files.length; i += 2) await Promise.all(files.slice(i, i + 2).map(send));
    const abnormal = Object.entries(answers).filter(
      ([, a]) => !/^(200 ready|422 failed_validation|400 INVALID_FILE)$/.test(a),
    );
    expect(abnormal).toEqual([]);
    const capabilities = await service.api('/capabilities');
    expect(capabilities.status).toBe(200);
  }, 180_000);
});
