import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SIZE_FORMS_MESSAGE } from '../core/contract/create-job.ts';
import { createdJobSchema } from '../core/contract/job.ts';
import { braceletBody, errorOf, jsonInit, openJob } from './helpers/flows.ts';
import { servicePerTest } from './helpers/service.ts';

const service = servicePerTest();

const post = (body: unknown, headers?: Record<string, string>) => service.api('/jobs', jsonInit(body, headers));

describe('POST /jobs size forms', () => {
  it('computes a bracelet blank from the wrist with the comfort ease by default', async () => {
    const { body } = await openJob(service, { productType: 'bracelet', size: { wristMm: 160 }, widthMm: 20 });
    // 160 + 15 + pi x 1.5 - 25 = 154.71 -> 154.7
    expect(body.job.dims).toEqual({ lengthMm: 154.7, widthMm: 20, gapMm: 25, thicknessMm: 1.5 });
    expect(body.job.sizeInput).toEqual({ wristMm: 160 });
  });

  it('applies the snug and loose ease to the wrist', async () => {
    const snug = await openJob(service, { productType: 'bracelet', size: { wristMm: 160, fit: 'snug' }, widthMm: 20 });
    const loose = await openJob(service, {
      productType: 'bracelet',
      size: { wristMm: 160, fit: 'loose' },
      widthMm: 20,
    });
    expect(snug.body.job.dims.lengthMm).toBe(149.7);
    expect(loose.body.job.dims.lengthMm).toBe(159.7);
  });

  it('computes a ring blank from a half US size', async () => {
    const { body } = await openJob(service, { productType: 'ring', size: { usRingSize: 7.5 }, widthMm: 6 });
    // pi x (11.63 + 0.8128 x 7.5 + 1.5) = 60.40 -> 60.4
    expect(body.job.dims).toEqual({ lengthMm: 60.4, widthMm: 6, gapMm: 0, thicknessMm: 1.5 });
  });

  it('takes a blank length directly for either product', async () => {
    const ring = await openJob(service, { productType: 'ring', size: { lengthMm: 55.55 }, widthMm: 5 });
    const bracelet = await openJob(service, { productType: 'bracelet', size: { lengthMm: 200 }, widthMm: 30 });
    expect(ring.body.job.dims.lengthMm).toBe(55.6);
    expect(bracelet.body.job.dims.lengthMm).toBe(200);
  });

  it('answers 201 with a body that matches the contract schema', async () => {
    const { body } = await openJob(service);
    expect(() => createdJobSchema.parse(body)).not.toThrow();
    expect(body.job.status).toBe('open');
    expect(body.job.approval).toBeNull();
    expect(body.job.latestSubmission).toBeNull();
    expect(body.job.limits).toEqual({ submissionsLeft: 10 });
  });
});

describe('POST /jobs bounds', () => {
  it('refuses a wrist outside 110-230 mm with INVALID_REQUEST naming the bounds', async () => {
    for (const wristMm of [109, 231]) {
      const e = await errorOf(await post({ productType: 'bracelet', size: { wristMm }, widthMm: 20 }));
      expect(e.status).toBe(400);
      expect(e.code).toBe('INVALID_REQUEST');
      expect(e.message).toContain('between 110 and 230');
    }
  });

  it('accepts the wrist bounds themselves', async () => {
    await openJob(service, { productType: 'bracelet', size: { wristMm: 110 }, widthMm: 20 });
    await openJob(service, { productType: 'bracelet', size: { wristMm: 230 }, widthMm: 20 });
  });

  it('refuses ring sizes off the half-size grid or outside 3-16', async () => {
    for (const usRingSize of [2.5, 16.5, 7.25]) {
      const e = await errorOf(await post({ productType: 'ring', size: { usRingSize }, widthMm: 6 }));
      expect([e.status, e.code]).toEqual([400, 'INVALID_REQUEST']);
      expect(e.message).toContain('between 3 and 16 in steps of 0.5');
    }
    await openJob(service, { productType: 'ring', size: { usRingSize: 3 }, widthMm: 6 });
    await openJob(service, { productType: 'ring', size: { usRingSize: 16 }, widthMm: 6 });
  });

  it('answers LENGTH_OUT_OF_RANGE naming the product range', async () => {
    const e = await errorOf(await post({ productType: 'bracelet', size: { lengthMm: 280.1 }, widthMm: 20 }));
    expect([e.status, e.code]).toEqual([400, 'LENGTH_OUT_OF_RANGE']);
    expect(e.message).toContain('70-280 mm');
    const ring = await errorOf(await post({ productType: 'ring', size: { lengthMm: 39 }, widthMm: 6 }));
    expect([ring.code, ring.message.includes('40-90 mm')]).toEqual(['LENGTH_OUT_OF_RANGE', true]);
    await openJob(service, { productType: 'bracelet', size: { lengthMm: 70 }, widthMm: 20 });
  });

  it('answers WIDTH_OUT_OF_RANGE outside the product width range', async () => {
    for (const widthMm of [4.9, 80.1]) {
      const e = await errorOf(await post({ productType: 'bracelet', size: { lengthMm: 150 }, widthMm }));
      expect([e.status, e.code]).toEqual([400, 'WIDTH_OUT_OF_RANGE']);
      expect(e.message).toContain('5-80 mm');
    }
  });

  it('answers WIDTH_OUT_OF_RANGE below length / 46.15 and names that minimum', async () => {
    const e = await errorOf(await post({ productType: 'bracelet', size: { lengthMm: 280 }, widthMm: 6 }));
    expect([e.status, e.code]).toEqual([400, 'WIDTH_OUT_OF_RANGE']);
    expect(e.message).toContain('6.07 mm');
    expect(e.message).toContain('46.15');
    await openJob(service, { productType: 'bracelet', size: { lengthMm: 280 }, widthMm: 6.07 });
  });

  it('refuses a size form meant for the other product', async () => {
    const e = await errorOf(await post({ productType: 'ring', size: { wristMm: 160 }, widthMm: 6 }));
    expect([e.status, e.code]).toEqual([400, 'INVALID_REQUEST']);
    expect(e.message).toContain('bracelets only');
  });
});

describe('POST /jobs body validation', () => {
  it('rejects an unknown top-level field and names its path', async () => {
    const e = await errorOf(await post({ ...braceletBody, colour: 'gold' }));
    expect([e.status, e.code]).toEqual([400, 'INVALID_REQUEST']);
    expect(e.message).toContain('"colour"');
  });

  it('rejects a misspelled field, names it and suggests the right one', async () => {
    const e = await errorOf(await post({ productType: 'bracelet', size: { wristMm: 160 }, widthMM: 20 }));
    expect(e.code).toBe('INVALID_REQUEST');
    expect(e.message).toContain('"widthMM"');
    expect(e.message).toContain('"widthMm"');
  });

  it('names the nested path of an unknown attribution field', async () => {
    const e = await errorOf(await post({ ...braceletBody, attribution: { agentPlatfrom: 'x' } }));
    expect(e.message).toContain('"attribution.agentPlatfrom"');
  });

  it('names the three size forms for a malformed size', async () => {
    for (const size of [{}, { wristMm: 160, lengthMm: 150 }, { wristMm: '160' }, { diameterMm: 18 }, 'large']) {
      const e = await errorOf(await post({ productType: 'bracelet', size, widthMm: 20 }));
      expect([e.status, e.code]).toEqual([400, 'INVALID_REQUEST']);
      expect(e.message).toContain('wristMm');
      expect(e.message).toContain('usRingSize');
      expect(e.message).toContain('lengthMm');
    }
  });

  it('names an unknown field inside size by its path, beside the three size forms', async () => {
    const cases: [unknown, string][] = [
      [{ wristMm: 160, circumference: 3 }, 'Unknown field "size.circumference".'],
      [{ lengthMm: 150, diameterMm: 18 }, 'Unknown field "size.diameterMm".'],
      [{ diameterMm: 18 }, 'Unknown field "size.diameterMm".'],
      [{ wristmm: 160 }, 'Unknown field "size.wristmm". Did you mean "size.wristMm"?'],
    ];
    for (const [size, named] of cases) {
      const e = await errorOf(await post({ productType: 'bracelet', size, widthMm: 20 }));
      expect([e.status, e.code]).toEqual([400, 'INVALID_REQUEST']);
      expect(e.message).toBe(`${named} ${SIZE_FORMS_MESSAGE}`);
    }
  });

  it('refuses a missing widthMm, a wrong type and an unknown product', async () => {
    const missing = await errorOf(await post({ productType: 'bracelet', size: { wristMm: 160 } }));
    expect(missing.message).toBe('Missing required field "widthMm".');
    const wrongType = await errorOf(await post({ ...braceletBody, widthMm: '20' }));
    expect(wrongType.message).toBe('Field "widthMm" must be a number.');
    const product = await errorOf(await post({ ...braceletBody, productType: 'necklace' }));
    expect(product.message).toContain('"productType"');
  });

  it('refuses malformed JSON, an empty body, a non-object and a non-JSON content type', async () => {
    for (const init of [
      jsonInit('{"productType":'),
      jsonInit(''),
      jsonInit('[1,2]'),
      { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(braceletBody) },
    ]) {
      const e = await errorOf(await service.api('/jobs', init));
      expect([e.status, e.code]).toEqual([400, 'INVALID_REQUEST']);
    }
  });

  it('echoes attribution and refuses a value over 64 characters', async () => {
    const attribution = { agentPlatform: 'claude', integration: 'rest', skillVersion: '1.2.0', apiVersion: 'v1' };
    const { body } = await openJob(service, { ...braceletBody, attribution });
    expect(body.job.attribution).toEqual(attribution);
    const e = await errorOf(await post({ ...braceletBody, attribution: { integration: 'x'.repeat(65) } }));
    expect(e.code).toBe('INVALID_REQUEST');
    expect(e.message).toContain('"attribution.integration"');
    await openJob(service, { ...braceletBody, attribution: { integration: 'x'.repeat(64) } });
  });
});

describe('POST /jobs outputs', () => {
  it('gives drawing hints at the job ratio inside the 1536x1024 canvas', async () => {
    const { body } = await openJob(service, { productType: 'bracelet', size: { lengthMm: 160 }, widthMm: 20 });
    const d = body.job.drawing;
    expect(d.ratio).toBe(8);
    expect(d.recommendedPixels).toBe('1536x1024');
    expect(d.orientation).toBe('landscape');
    expect(d.minOpeningAreaMm2).toBeCloseTo(0.0004 * 160 * 20, 6);
    expect(d.stripPx.width / d.stripPx.height).toBeCloseTo(8, 1);
    expect(d.stripPx.x + d.stripPx.width).toBeLessThanOrEqual(1536);
    expect(d.stripPx.y + d.stripPx.height).toBeLessThanOrEqual(1024);
    expect(d.mmPerPx).toBeCloseTo(160 / d.stripPx.width, 4);
    expect(d.minOpeningPx).toBeCloseTo(0.2 / d.mmPerPx, 1);
    expect(d.minMetalPx).toBeCloseTo(0.6 / d.mmPerPx, 1);
  });

  it('prices the product with shipping and VAT', async () => {
    const bracelet = await openJob(service);
    const ring = await openJob(service, { productType: 'ring', size: { usRingSize: 7 }, widthMm: 6 });
    expect(bracelet.body.job.price).toMatchObject({
      currency: 'ILS',
      base: 320,
      shipping: 30,
      total: 350,
      vatIncluded: true,
    });
    expect(ring.body.job.price).toMatchObject({ base: 220, shipping: 30, total: 250 });
  });

  it('expires seven days after creation', async () => {
    const { body } = await openJob(service);
    expect(Date.parse(body.job.expiresAt) - Date.parse(body.job.createdAt)).toBe(7 * 24 * 3600 * 1000);
    expect(body.job.createdAt).toBe(new Date(service.clock.now()).toISOString());
  });

  it('returns an ajs_ secret once and stores only its SHA-256 hash', async () => {
    const { id, secret } = await openJob(service);
    expect(secret).toMatch(/^ajs_[A-Za-z0-9_-]{43}$/);
    const rows = await service.db.orm.$client.execute({ sql: 'SELECT * FROM jobs WHERE id = ?', args: [id] });
    const stored = JSON.stringify(rows.rows[0]);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice(4));
    expect(rows.rows[0]!.secret_hash).toBe(createHash('sha256').update(secret).digest('hex'));
  });

  it('issues a different secret and id for every job', async () => {
    const a = await openJob(service);
    const b = await openJob(service);
    expect(a.secret).not.toBe(b.secret);
    expect(a.id).not.toBe(b.id);
  });
});
