import { afterEach, describe, expect, it } from 'vitest';
import { escapeHtml } from '../web/html.ts';
import { removeDir, startService, type TestService } from './helpers/service.ts';

/*
 * The OpenAPI document and the reference page state limits an agent plans by. A CONFIG_FILE that
 * moves one must move what they say: each value below is changed in a real configuration file,
 * and both documents must state the new number and no longer the built-in one.
 */

const changed = {
  manufacturing: { minMetalMm: 0.8 },
  limits: {
    submissionsPerJob: 14,
    pollIntervalSec: 45,
    syncTimeoutSec: 150,
    tracerTimeoutSec: 75,
    jobsPerHourPerIp: 35,
    globalJobsPerDay: 250,
  },
  image: {
    maxBytes: 7_500_000,
    minShortSidePx: 300,
    maxLongSidePx: 9000,
    maxPixels: 30_000_000,
    cropAspect: { min: 0.5, max: 40.5 },
    proportion: { keepWithin: 0.07, maxStretch: 1.8 },
    recommendedPixels: { width: 2048, height: 1360 },
  },
};

interface Statement {
  value: string;
  builtIn: string;
  configured: string;
  /** Header examples are in the document only; the page shows header descriptions. */
  documentOnly?: boolean;
}

const statements: Statement[] = [
  { value: 'image.maxBytes', builtIn: 'at most 6,000,000 bytes', configured: 'at most 7,500,000 bytes' },
  { value: 'image.maxBytes (413)', builtIn: 'over 6,000,000 bytes.', configured: 'over 7,500,000 bytes.' },
  {
    value: 'image.recommendedPixels',
    builtIn: 'the recommended canvas (1536x1024,',
    configured: 'the recommended canvas (2048x1360,',
  },
  {
    value: 'image.recommendedPixels.width',
    builtIn: 'the recommended canvas width, 1536 px',
    configured: 'the recommended canvas width, 2048 px',
  },
  {
    value: 'image.cropAspect',
    builtIn: 'a piece outside 0.439:1 to 46.15:1',
    configured: 'a piece outside 0.5:1 to 40.5:1',
  },
  {
    value: 'image.cropAspect (widths)',
    builtIn: 'a width under the blank length / 46.15 or over the blank length / 0.439',
    configured: 'a width under the blank length / 40.5 or over the blank length / 0.5',
  },
  { value: 'image.proportion.keepWithin', builtIn: 'within 5 % of that ratio', configured: 'within 7 % of that ratio' },
  {
    value: 'image.proportion.maxStretch',
    builtIn: 'up to x1.5 (or x1/1.5) off',
    configured: 'up to x1.8 (or x1/1.8) off',
  },
  {
    value: 'image sides and pixels',
    builtIn: 'short side under 256 px, long side over 8192 px or over 24 megapixels',
    configured: 'short side under 300 px, long side over 9000 px or over 30 megapixels',
  },
  {
    value: 'limits.submissionsPerJob',
    builtIn: 'the quota of 10 counted submissions',
    configured: 'the quota of 14 counted submissions',
  },
  {
    value: 'limits.submissionsPerJob (409)',
    builtIn: 'all 10 counted submissions are used',
    configured: 'all 14 counted submissions are used',
  },
  {
    value: 'limits.pollIntervalSec',
    builtIn: 'limits.pollIntervalSec (30) seconds',
    configured: 'limits.pollIntervalSec (45) seconds',
  },
  {
    value: 'limits.pollIntervalSec (overview)',
    builtIn: 'at most every 30 seconds',
    configured: 'at most every 45 seconds',
  },
  {
    value: 'limits.syncTimeoutSec',
    builtIn: 'limits.syncTimeoutSec (120 s,',
    configured: 'limits.syncTimeoutSec (150 s,',
  },
  { value: 'limits.tracerTimeoutSec', builtIn: 'timed out (90 s)', configured: 'timed out (75 s)' },
  {
    value: 'manufacturing.minMetalMm (margins)',
    builtIn: 'openings: up to 0.6 mm',
    configured: 'openings: up to 0.8 mm',
  },
  {
    value: 'rate-limit buckets (RateLimit-Policy example)',
    builtIn: '"jobsPerHourPerIp";q=30;w=3600, "globalJobsPerDay";q=200;w=86400',
    configured: '"jobsPerHourPerIp";q=35;w=3600, "globalJobsPerDay";q=250;w=86400',
    documentOnly: true,
  },
  {
    value: 'rate-limit buckets (RateLimit example)',
    builtIn: '"jobsPerHourPerIp";r=29;t=3600',
    configured: '"jobsPerHourPerIp";r=34;t=3600',
    documentOnly: true,
  },
];

/** Every string in the document, one per line: where a sentence sits does not matter here. */
function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (!value || typeof value !== 'object') return [];
  return Object.values(value).flatMap(textsOf);
}

/** Descriptions and examples removed: what the answers are held to (schemas, statuses, headers). */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'description' && key !== 'example')
      .map(([key, item]) => [key, shapeOf(item)]),
  );
}

let services: TestService[] = [];
afterEach(async () => {
  for (const service of services) {
    await service.close();
    removeDir(service.dir);
  }
  services = [];
});

async function published(config?: object) {
  const service = await startService(config ? { config } : {});
  services.push(service);
  const documentAnswer = await service.fetch('/openapi/agent-v1.json');
  const pageAnswer = await service.fetch('/docs/api');
  expect(documentAnswer.status).toBe(200);
  expect(pageAnswer.status).toBe(200);
  const document: unknown = await documentAnswer.json();
  return { document, text: textsOf(document).join('\n'), page: await pageAnswer.text() };
}

describe('the OpenAPI document and /docs/api under a CONFIG_FILE', () => {
  it('state the built-in numbers without one', async () => {
    const { text, page } = await published();
    expect(statements.filter((s) => !text.includes(s.builtIn)).map((s) => s.value)).toEqual([]);
    const onPage = statements.filter((s) => !s.documentOnly);
    expect(onPage.filter((s) => !page.includes(escapeHtml(s.builtIn))).map((s) => s.value)).toEqual([]);
  });

  it('state every number the file changes, and not the built-in one', async () => {
    const { text, page } = await published(changed);
    expect(statements.filter((s) => !text.includes(s.configured)).map((s) => s.value)).toEqual([]);
    expect(statements.filter((s) => text.includes(s.builtIn)).map((s) => s.value)).toEqual([]);
    const onPage = statements.filter((s) => !s.documentOnly);
    expect(onPage.filter((s) => !page.includes(escapeHtml(s.configured))).map((s) => s.value)).toEqual([]);
    expect(onPage.filter((s) => page.includes(escapeHtml(s.builtIn))).map((s) => s.value)).toEqual([]);
  });

  it('change only words and examples: the schemas, statuses and headers answers are held to stay the same', async () => {
    const [builtIn, configured] = [await published(), await published(changed)];
    expect(shapeOf(configured.document)).toEqual(shapeOf(builtIn.document));
  });
});
