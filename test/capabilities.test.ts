import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildConfig, ConfigError, loadConfig } from '../core/config.ts';
import { errorOf, jsonInit, openJob } from './helpers/flows.ts';
import { removeDir, startService, type TestService } from './helpers/service.ts';

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  if (service) removeDir(service.dir);
  service = undefined;
});

const capabilities = async (s: TestService) => {
  const response = await s.api('/capabilities');
  expect(response.status).toBe(200);
  return (await response.json()) as any;
};

const specPath = resolve(import.meta.dirname, '../../shared/spec/agent-api-v1.md');

/** The catalogue as the contract's Errors table lists it, read from the contract itself. */
function contractCatalogue(): string[] {
  const spec = readFileSync(specPath, 'utf8');
  const table = spec.slice(spec.indexOf('| Code | HTTP / arrives as |'), spec.indexOf('Retry guidance:'));
  return [...table.matchAll(/^\| ([A-Z_]+) \|/gm)].map((m) => m[1]!).filter((code) => code !== 'Code');
}

describe('GET /capabilities', () => {
  it('publishes every top-level field of the contract', async () => {
    service = await startService();
    const caps = await capabilities(service);
    expect(Object.keys(caps).sort()).toEqual(
      [
        'apiVersion',
        'contractVersion',
        'manufacturing',
        'limits',
        'approvalPage',
        'products',
        'sizing',
        'image',
        'links',
        'errorCodes',
      ].sort(),
    );
    expect(caps.apiVersion).toBe('v1');
    expect(caps.contractVersion).toBe('2026-09');
    expect(caps.manufacturing).toMatchObject({
      material: 'brass',
      thicknessMm: 1.5,
      minOpeningMm: 0.2,
      minMetalMm: 0.6,
      despeckleAreaFraction: 0.0004,
    });
    expect(typeof caps.manufacturing.note).toBe('string');
    expect(caps.approvalPage.language).toBe('he');
    expect(caps.image).toMatchObject({
      maxBytes: 6_000_000,
      minShortSidePx: 256,
      maxLongSidePx: 8192,
      maxPixels: 24_000_000,
      cropAspect: { min: 0.439, max: 46.15 },
      recommendedPixels: '1536x1024',
    });
    expect(caps.image.rules.length).toBeGreaterThan(3);
    expect(caps.links.jobs).toBe('http://localhost:8787/api/agent/v1/jobs');
  });

  it('publishes every limit of the contract snapshot', async () => {
    service = await startService();
    expect((await capabilities(service)).limits).toMatchObject({
      submissionsPerJob: 10,
      jobsPerHourPerIp: 30,
      globalJobsPerDay: 200,
      submissionsPerHourPerIp: 60,
      globalSubmissionsPerMinute: 12,
      globalSubmissionsPerDay: 600,
      adoptsPerHourPerAccount: 20,
      jobTtlDays: 7,
      declinedTtlHours: 24,
      syncTimeoutSec: 120,
      pollIntervalSec: 30,
    });
  });

  it('publishes products and sizing from decisions section 2', async () => {
    service = await startService();
    const { products, sizing } = await capabilities(service);
    expect(products.bracelet).toMatchObject({
      lengthRangeMm: { min: 70, max: 280 },
      widthRangeMm: { min: 5, max: 80 },
      defaultWidthMm: 20,
      price: { currency: 'ILS', base: 320, shipping: 30, total: 350, vatIncluded: true },
    });
    expect(products.ring).toMatchObject({
      lengthRangeMm: { min: 40, max: 90 },
      widthRangeMm: { min: 2, max: 20 },
      defaultWidthMm: 6,
      price: { base: 220, shipping: 30, total: 250 },
    });
    expect(sizing.bracelet.wristMm).toEqual({ min: 110, max: 230 });
    expect(sizing.bracelet.easeMm).toEqual({ snug: 10, comfort: 15, loose: 20 });
    expect(sizing.ring.usRingSize).toEqual({ min: 3, max: 16, step: 0.5 });
  });

  it.skipIf(!existsSync(specPath))('lists the 41 error codes in the contract catalogue order', async () => {
    service = await startService();
    const { errorCodes } = await capabilities(service);
    expect(errorCodes).toHaveLength(41);
    expect(errorCodes).toEqual(contractCatalogue());
  });

  it('answers HEAD like GET without a body', async () => {
    service = await startService();
    const head = await service.api('/capabilities', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await head.text()).toBe('');
  });
});

describe('CONFIG_FILE', () => {
  it('takes effect in capabilities and in enforcement alike', async () => {
    service = await startService({
      config: {
        limits: { jobsPerHourPerIp: 2 },
        products: { bracelet: { widthRangeMm: { min: 10, max: 40 }, price: { base: 400 } } },
      },
    });
    const caps = await capabilities(service);
    expect(caps.limits.jobsPerHourPerIp).toBe(2);
    expect(caps.products.bracelet.widthRangeMm).toEqual({ min: 10, max: 40 });
    expect(caps.products.bracelet.price.total).toBe(430);
    // The other defaults survive the deep merge.
    expect(caps.limits.globalJobsPerDay).toBe(200);

    const narrow = await errorOf(
      await service.api('/jobs', jsonInit({ productType: 'bracelet', size: { wristMm: 160 }, widthMm: 8 })),
    );
    expect([narrow.code, narrow.message.includes('10-40 mm')]).toEqual(['WIDTH_OUT_OF_RANGE', true]);
    const opened = await openJob(service);
    expect(opened.body.job.price.total).toBe(430);
    const limited = await errorOf(
      await service.api('/jobs', jsonInit({ productType: 'bracelet', size: { wristMm: 160 }, widthMm: 20 })),
    );
    expect([limited.status, limited.code]).toEqual([429, 'RATE_LIMITED']);
  });

  it('lets an outside suite raise jobsPerHourPerIp to run many jobs from one address', async () => {
    service = await startService({ config: { limits: { jobsPerHourPerIp: 100000, globalJobsPerDay: 100000 } } });
    for (let i = 0; i < 40; i++) await openJob(service);
  });

  it('refuses a configuration with a misspelled or mistyped key, naming it', () => {
    expect(() => buildConfig({ limits: { jobsPerHourPerIP: 5 } })).toThrow(ConfigError);
    expect(() => buildConfig({ limits: { jobsPerHourPerIp: 'many' } })).toThrow(/limits\.jobsPerHourPerIp/);
    expect(() => loadConfig('/nonexistent/config.json')).toThrow(/CONFIG_FILE/);
  });
});
