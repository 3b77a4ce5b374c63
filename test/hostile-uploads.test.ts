import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDir, evilPngs, hasCorpus, type EvilRecord } from './helpers/corpus.ts';
import { bearer, braceletBody, jsonInit, roomyRateLimits } from './helpers/flows.ts';
import { spawnLiveServer, type SpawnedLiveServer } from './helpers/live-server.ts';
import { multipart } from './helpers/multipart.ts';

/**
 * Every hostile file of the shared corpus, uploaded over real HTTP to `server.ts` running in a
 * process of its own (worker-pool pipeline, embedded database, the contract's image limits),
 * whose peak resident memory is read from the kernel. Only the rate limits are raised, through
 * `CONFIG_FILE`, so one address can send the whole corpus.
 */
const config = { limits: roomyRateLimits };

/**
 * The service process's peak RSS may not pass this. Measured on the 2-core machine (two pipeline
 * workers): about 325 MB at rest, about 620 MB at the worst crafted file (the 24-megapixel
 * checkerboard), and about the same with it and the noise image analysed at once; the bench's real
 * 24-megapixel lace design peaks at 700-800 MB (docs/performance.md). A decoder that inflated the
 * 1 GiB IDAT or a 1 GiB zTXt chunk, or held several 192 MB 16-bit RGBA rasters, passes it at once.
 * The service runs one worker per core (`buildService`), each analysing one image at a time, so
 * a machine with more cores may use about 300 MB more per extra worker.
 * Four heavy files at once on Node 24 (2026-11-24): 849-856 MB run alone, and once 944 MB (0.5 MB
 * over the old 900 MiB bound) while the whole suite loaded both cores and the garbage collectors
 * ran late. The bound is 1000 MiB: the faults it is for (an inflated 1 GiB chunk, several 192 MB
 * rasters held at once) pass it by far more than that.
 */
const PEAK_RSS_BOUND = (1000 + 300 * Math.max(0, availableParallelism() - 2)) * 1024 * 1024;
/** Above the contract's 120 s processing window: an answer later than this is a hang. */
const REQUEST_TIMEOUT_MS = 150_000;

let server: SpawnedLiveServer;
beforeAll(async () => {
  server = await spawnLiveServer({ config });
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const MB = (bytes: number) => Math.round(bytes / 1024 / 1024);

interface UploadJob {
  id: string;
  secret: string;
  /** Uploads answered 200 or 422; replays count too, so a fresh job comes early, never late. */
  counted: number;
}

async function openJob(): Promise<UploadJob> {
  const response = await server.api('/jobs', jsonInit(braceletBody));
  const body: any = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(201);
  return { id: body.job.id, secret: body.credentials.jobSecret, counted: 0 };
}

/** Jobs to upload into, a fresh one once the current one has used its 10 counted submissions. */
function jobSupply(): () => Promise<UploadJob> {
  let current: UploadJob | undefined;
  return async () => {
    if (!current || current.counted >= 10) current = await openJob();
    return current;
  };
}

interface Answer {
  /** `200 ready`, `422 failed_validation`, `422 INVALID_FILE` (a finding) or `<status> <CODE>`. */
  answer: string;
  ms: number;
}

async function upload(job: UploadJob, bytes: Uint8Array, as: 'raw' | 'multipart'): Promise<Answer> {
  const body =
    as === 'raw'
      ? { body: bytes, contentType: 'image/png' }
      : multipart([{ name: 'image', filename: 'x.png', data: bytes }]);
  const started = performance.now();
  const response = await server.api(`/jobs/${job.id}/submissions`, {
    method: 'POST',
    headers: { 'content-type': body.contentType, ...bearer(job.secret) },
    body: body.body as Uint8Array<ArrayBuffer>,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  const ms = Math.round(performance.now() - started);
  expect(response.headers.get('content-type'), text.slice(0, 200)).toMatch(/^application\/json/);
  const json = JSON.parse(text);
  if (response.status === 200 || response.status === 422) {
    const { submission } = json;
    if (response.status === 200) {
      expect(submission.status).toBe('ready');
      expect(submission.files.cutoutsSvg).toEqual(expect.any(String));
    } else {
      expect(submission.status).toBe('failed_validation');
      expect(submission.validation.errors.length).toBeGreaterThan(0);
    }
    job.counted++;
    const codes: string[] = submission.validation.errors.map((e: { code: string }) => e.code);
    return {
      answer: codes.includes('INVALID_FILE') ? '422 INVALID_FILE' : `${response.status} ${submission.status}`,
      ms,
    };
  }
  return { answer: `${response.status} ${json.error.code}`, ms };
}

/** What index.json's expectations allow, in the answers' own terms. */
function allowed(expectations: string[]): string[] {
  return expectations.flatMap((e) => {
    if (e === 'ACCEPTED') return ['200 ready', '422 failed_validation'];
    if (e === 'INVALID_FILE') return ['400 INVALID_FILE', '422 INVALID_FILE'];
    return [e];
  });
}
const expectationsOf = (r: EvilRecord) => [r.expect, ...[r.alsoAcceptable ?? []].flat()];

async function expectServiceUp(): Promise<void> {
  expect(server.process.exitCode).toBeNull();
  const response = await server.api('/capabilities', { signal: AbortSignal.timeout(10_000) });
  expect(response.status).toBe(200);
  await response.arrayBuffer();
}

describe.skipIf(!hasCorpus)('hostile uploads over real HTTP to the running service', () => {
  it(
    'answers every crafted file of make-evil-pngs.mjs as its index.json expects, raw and as multipart, with no 5xx and bounded memory',
    async () => {
      const { dir, records } = evilPngs();
      expect(records.length).toBeGreaterThan(80);
      console.info(`at rest: RSS ${MB(server.memory().rssBytes)} MB, peak ${MB(server.memory().peakRssBytes)} MB`);
      server.resetPeak();
      const nextJob = jobSupply();
      const wrong: object[] = [];
      const timings: [string, number][] = [];
      let peak = { bytes: 0, after: '' };
      for (const record of records) {
        const bytes = readFileSync(join(dir, record.file));
        const job = await nextJob();
        const raw = await upload(job, bytes, 'raw');
        // Same job, same bytes: a stored outcome replays, a refusal is decided again.
        const form = await upload(job, bytes, 'multipart');
        timings.push([record.file, raw.ms]);
        const ok = allowed(expectationsOf(record));
        if (!ok.includes(raw.answer) || form.answer !== raw.answer) {
          wrong.push({ file: record.file, raw: raw.answer, multipart: form.answer, allowed: ok });
        }
        await expectServiceUp();
        const { peakRssBytes } = server.memory();
        if (peakRssBytes > peak.bytes) peak = { bytes: peakRssBytes, after: record.file };
      }
      expect(wrong).toEqual([]);
      expect(server.output.filter((line) => line.includes('"msg":"unexpected error"'))).toEqual([]);
      const slowest = timings.sort((a, b) => b[1] - a[1]).slice(0, 5);
      console.info(
        `evil corpus: peak RSS ${MB(peak.bytes)} MB (reached at ${peak.after}); slowest ${JSON.stringify(slowest)}`,
      );
      expect(peak.bytes).toBeLessThan(PEAK_RSS_BOUND);
    },
    30 * 60_000,
  );

  it(
    'refuses the small PngSuite images and the corrupt x* files from the header, and processes the 256x256 logo',
    async () => {
      const folder = join(corpusDir, 'pngsuite');
      const files = readdirSync(folder).filter((f) => f.endsWith('.png'));
      expect(files.length).toBeGreaterThan(170);
      server.resetPeak();
      const nextJob = jobSupply();
      const expected = (file: string): string[] => {
        if (file === 'PngSuite.png') return allowed(['ACCEPTED']);
        // Bad IDAT checksum / no IDAT: nothing wrong in the header of a 32x32 image, so its size decides.
        if (file === 'xcsn0g01.png' || file === 'xdtn0g01.png') return ['400 IMAGE_TOO_SMALL'];
        if (file.startsWith('x')) return ['400 INVALID_FILE'];
        return ['400 IMAGE_TOO_SMALL'];
      };
      const wrong: object[] = [];
      for (const file of files) {
        const { answer } = await upload(await nextJob(), readFileSync(join(folder, file)), 'raw');
        if (!expected(file).includes(answer)) wrong.push({ file, answer, allowed: expected(file) });
        await expectServiceUp();
      }
      expect(wrong).toEqual([]);
      console.info(`PngSuite: peak RSS ${MB(server.memory().peakRssBytes)} MB`);
      expect(server.memory().peakRssBytes).toBeLessThan(PEAK_RSS_BOUND);
    },
    10 * 60_000,
  );

  it(
    'stays under the memory bound with the heaviest accepted files sent four at a time',
    async () => {
      const { dir } = evilPngs();
      // The two that cost most memory one at a time (12 million one-pixel openings; millions of
      // random regions), and the two largest decodes.
      const heavy = [
        'checker-24mp-g1.png',
        'noise-24mp-g1.png',
        'bomb-24mp-8000x3000-rgba16.png',
        'bomb-idat-inflates-1gib.png',
      ];
      server.resetPeak();
      // A fresh job each, so nothing replays: every one of them is decoded again.
      const sent = await Promise.all(
        heavy.map(async (file) => ({ file, ...(await upload(await openJob(), readFileSync(join(dir, file)), 'raw')) })),
      );
      for (const { file, answer } of sent) expect(answer, file).toMatch(/^(200 ready|422 failed_validation)$/);
      await expectServiceUp();
      const { peakRssBytes } = server.memory();
      console.info(`four heavy files at once: peak RSS ${MB(peakRssBytes)} MB; ${JSON.stringify(sent)}`);
      expect(peakRssBytes).toBeLessThan(PEAK_RSS_BOUND);
    },
    10 * 60_000,
  );
});
