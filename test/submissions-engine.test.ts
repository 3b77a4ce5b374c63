import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { afterEach, describe, expect, it } from 'vitest';
import { submissionEnvelopeSchema } from '../core/contract/submission.ts';
import { PIPELINE_REVISION } from '../core/pipeline/revision.ts';
import { pipelineTolerances } from '../core/pipeline/tolerances.ts';
import { designFixture } from './fixtures/pipeline/designs.ts';
import { bearer, errorOf, openJob, roomyRateLimits, uploadPng, type OpenedJob } from './helpers/flows.ts';
import { makePng } from './helpers/png.ts';
import { removeDir, startService, type TestService } from './helpers/service.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * `submission.engine`: every submission records the SHA-256 of the uploaded bytes, the engine
 * (package version + pipeline revision) and the live parameters it was analysed under, so an
 * outcome can be traced to what produced it. Rows stored before it was recorded read null.
 */

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const packageVersion: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
const MIGRATION_TAG = '0004_submission_engine';

const running: TestService[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const service of running.splice(0)) {
    await service.close();
    removeDir(service.dir);
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(options: Parameters<typeof startService>[0] = {}): Promise<TestService> {
  const service = await startService(options);
  running.push(service);
  return service;
}

/** True once the upload's row exists and is still `processing`. */
async function isProcessing(service: TestService, job: OpenedJob): Promise<boolean> {
  const response = await service.api(`/jobs/${job.id}/submissions/1`, { headers: bearer(job.secret) });
  return response.status === 200 && ((await response.json()) as any).submission.status === 'processing';
}

async function readSubmission(service: TestService, job: OpenedJob, no: number) {
  const response = await service.api(`/jobs/${job.id}/submissions/${no}`, { headers: bearer(job.secret) });
  expect(response.status).toBe(200);
  return submissionEnvelopeSchema.parse(await response.json()).submission;
}

describe('submission.engine through the real pipeline', () => {
  it('records the SHA-256 of the uploaded bytes, the package version, the pipeline revision and the live parameters', async () => {
    // Floors off their defaults, so the record can only have come from the live configuration.
    const manufacturing = { minMetalMm: 0.5, despeckleAreaFraction: 0.0005, thicknessMm: 1.2 };
    const image = { proportion: { keepWithin: 0.06, maxStretch: 1.6 } };
    const service = await start({ realPipeline: true, config: { manufacturing, image, limits: roomyRateLimits } });
    const fixture = designFixture('clean-holes');
    const { productType, lengthMm, widthMm } = fixture.job;
    const job = await openJob(service, { productType, size: { lengthMm }, widthMm });
    const png = await fixture.png();

    const response = await uploadPng(service, job, png);
    expect(response.status).toBe(200);
    const posted = submissionEnvelopeSchema.parse(await response.json()).submission;
    const read = await readSubmission(service, job, posted.no);

    const live = service.core.config;
    expect(live.manufacturing).toMatchObject(manufacturing);
    expect(read.engine).toEqual({
      inputSha256: sha256(png),
      version: packageVersion,
      pipelineRevision: PIPELINE_REVISION,
      parameters: {
        minOpeningMm: live.manufacturing.minOpeningMm,
        minMetalMm: 0.5,
        despeckleAreaFraction: 0.0005,
        minOpeningAreaMm2: 0.0005 * lengthMm * widthMm,
        thicknessMm: 1.2,
        densityGramsPerCm3: live.manufacturing.densityGramsPerCm3,
        cropAspect: live.image.cropAspect,
        tolerances: { ...pipelineTolerances, keepProportionWithin: 0.06, maxStretch: 1.6 },
      },
    });
    expect(posted.engine).toEqual(read.engine);
    // The area is the job's despeckle area, as the job's drawing hints publish it (rounded there).
    const jobRead: any = await (await service.api(`/jobs/${job.id}`, { headers: bearer(job.secret) })).json();
    expect(read.engine!.parameters.minOpeningAreaMm2).toBeCloseTo(jobRead.job.drawing.minOpeningAreaMm2, 4);
  });
});

describe('submission.engine around the pipeline', () => {
  it('is recorded while the upload is processing and kept on a failed_processing submission', async () => {
    const service = await start();
    const job = await openJob(service);
    const png = makePng({ width: 300, height: 300, seed: 1 });
    service.pipeline.script(png, 'failed');
    const release = service.pipeline.hold();
    const upload = uploadPng(service, job, png);
    await waitFor('the upload to start processing', () => isProcessing(service, job));

    const processing = await readSubmission(service, job, 1);
    expect(processing.engine).toMatchObject({ inputSha256: sha256(png), version: packageVersion });
    release();
    expect((await errorOf(await upload)).code).toBe('PROCESSING_FAILED');

    const failed = await readSubmission(service, job, 1);
    expect(failed.status).toBe('failed_processing');
    expect(failed.engine).toEqual(processing.engine);
    expect(failed.engine!.parameters.minOpeningMm).toBe(service.core.config.manufacturing.minOpeningMm);
  });

  it('replays the engine stored with the first analysis when identical bytes are sent again', async () => {
    const service = await start();
    const job = await openJob(service);
    const png = makePng({ width: 300, height: 300, seed: 2 });
    const first = submissionEnvelopeSchema.parse(await (await uploadPng(service, job, png)).json()).submission;
    const again = submissionEnvelopeSchema.parse(await (await uploadPng(service, job, png)).json()).submission;
    expect(again.no).toBe(first.no);
    expect(again.engine).toEqual(first.engine);
    expect(again.engine!.inputSha256).toBe(sha256(png));
  });

  it('carries the real input hash on the answer of an upload whose job was cancelled while it ran', async () => {
    const service = await start();
    const job = await openJob(service);
    const png = makePng({ width: 300, height: 300, seed: 3 });
    const release = service.pipeline.hold();
    const upload = uploadPng(service, job, png);
    await waitFor('the upload to start processing', () => isProcessing(service, job));
    expect((await service.api(`/jobs/${job.id}`, { method: 'DELETE', headers: bearer(job.secret) })).status).toBe(200);
    release();

    const answer = submissionEnvelopeSchema.parse(await (await upload).json()).submission;
    expect(answer.engine).toMatchObject({ inputSha256: sha256(png), pipelineRevision: PIPELINE_REVISION });
  });
});

describe('submissions stored before the engine was recorded', () => {
  /** The migrations folder as it stood before the engine column: every entry before ours. */
  function migrationsBeforeEngine(into: string): string {
    const folder = join(into, 'migrations');
    cpSync(new URL('../db/migrations', import.meta.url), folder, { recursive: true });
    const journalPath = join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8'));
    const at = journal.entries.findIndex((e: { tag: string }) => e.tag === MIGRATION_TAG);
    expect(at).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, at);
    writeFileSync(journalPath, JSON.stringify(journal));
    return folder;
  }

  it('read engine: null once the migration has added the column, and new uploads record it', async () => {
    // A job with a ready submission, made by today's service on a scratch database.
    const source = await start();
    const job = await openJob(source);
    const png = makePng({ width: 300, height: 300, seed: 4 });
    expect((await uploadPng(source, job, png)).status).toBe(200);

    // The same rows in a database built by the migrations before the engine column.
    const dir = mkdtempSync(join(tmpdir(), 'jobs-engine-old-'));
    dirs.push(dir);
    const client = createClient({ url: `file:${join(dir, 'test.db')}` });
    await migrate(drizzle(client), { migrationsFolder: migrationsBeforeEngine(dir) });
    const columns = async (table: string) =>
      (await client.execute(`PRAGMA table_info(${table})`)).rows.map((r) => `"${String(r.name)}"`).join(', ');
    expect(await columns('submissions')).not.toContain('"engine"');
    await client.execute(`ATTACH DATABASE '${source.dbPath}' AS src`);
    for (const table of ['jobs', 'submissions']) {
      const list = await columns(table);
      await client.execute(`INSERT INTO ${table} (${list}) SELECT ${list} FROM src.${table}`);
    }
    await client.execute('DETACH DATABASE src');
    client.close();

    // Opening it applies the migration; the old row keeps its outcome and reads engine: null.
    const migrated = await start({ dir });
    const old = await readSubmission(migrated, job, 1);
    expect(old).toMatchObject({ no: 1, status: 'ready' });
    expect(old.engine).toBeNull();

    const next = makePng({ width: 300, height: 300, seed: 5 });
    expect((await uploadPng(migrated, job, next)).status).toBe(200);
    expect((await readSubmission(migrated, job, 2)).engine?.inputSha256).toBe(sha256(next));
  });
});

describe('the OpenAPI document', () => {
  it('describes submission.engine as a nullable object with the hash, the engine and the parameters', async () => {
    const service = await start();
    const doc: any = await (await service.fetch('/openapi/agent-v1.json')).json();
    const submission = doc.components.schemas.Submission;
    expect(submission.required).toContain('engine');
    const variants = submission.properties.engine.anyOf;
    expect(variants).toContainEqual({ type: 'null' });
    const engine = variants.find((v: any) => v.type === 'object');
    expect(engine.description).toMatch(/SHA-256/);
    expect(engine.required).toEqual(['inputSha256', 'version', 'pipelineRevision', 'parameters']);
    expect(engine.properties.inputSha256.pattern).toBe('^[0-9a-f]{64}$');
    expect(Object.keys(engine.properties.parameters.properties)).toEqual(
      expect.arrayContaining([
        'minOpeningMm',
        'minMetalMm',
        'despeckleAreaFraction',
        'minOpeningAreaMm2',
        'tolerances',
      ]),
    );
    // The contract's own fields are all still there, unchanged in name.
    for (const field of [
      'no',
      'status',
      'validation',
      'geometry',
      'files',
      'approval',
      'price',
      'createdAt',
      'durationMs',
    ])
      expect(submission.required).toContain(field);
  });
});
