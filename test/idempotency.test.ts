import { describe, expect, it } from 'vitest';
import { jobReplaySchema } from '../core/contract/job.ts';
import { bearer, braceletBody, errorOf, jsonInit, openJob } from './helpers/flows.ts';
import { servicePerTest } from './helpers/service.ts';

const service = servicePerTest();

const KEY = '6f1c8a52-3b7e-4d0a-9c1e-2f5b7d9e1a3c';
const post = (body: unknown, key: string | undefined = KEY, address?: string) =>
  service.api('/jobs', jsonInit(body, key === undefined ? {} : { 'idempotency-key': key }), address);

describe('Idempotency-Key on POST /jobs', () => {
  it('replays the same key and body as 200 with the reduced job and no secret', async () => {
    const first = await post(braceletBody);
    expect(first.status).toBe(201);
    const created: any = await first.json();
    const again = await post(braceletBody);
    expect(again.status).toBe(200);
    const replay: any = await again.json();
    expect(Object.keys(replay)).toEqual(['job']);
    expect(replay.job.id).toBe(created.job.id);
    expect(Object.keys(replay.job).sort()).toEqual(
      ['id', 'status', 'productType', 'dims', 'drawing', 'limits', 'createdAt', 'expiresAt'].sort(),
    );
    expect(() => jobReplaySchema.strict().parse(replay.job)).not.toThrow();
    expect(JSON.stringify(replay)).not.toContain(created.credentials.jobSecret);
  });

  it('treats the same JSON value with its keys in another order as the same body', async () => {
    expect((await post(braceletBody)).status).toBe(201);
    const reordered = '{"widthMm":20,"size":{"wristMm":160},"productType":"bracelet"}';
    expect((await post(reordered)).status).toBe(200);
  });

  it('answers 409 IDEMPOTENCY_CONFLICT for the same key with a different body', async () => {
    expect((await post(braceletBody)).status).toBe(201);
    const e = await errorOf(await post({ ...braceletBody, widthMm: 21 }));
    expect([e.status, e.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    expect(e.message).toBe('This Idempotency-Key was already used with a different request body.');
  });

  it("answers 409 with the other message when the key's job was cancelled", async () => {
    const created: any = await (await post(braceletBody)).json();
    const cancel = await service.api(`/jobs/${created.job.id}`, {
      method: 'DELETE',
      headers: bearer(created.credentials.jobSecret),
    });
    expect(cancel.status).toBe(200);
    const e = await errorOf(await post(braceletBody));
    expect([e.status, e.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    expect(e.message).toBe('This Idempotency-Key belongs to a job that is cancelled.');
  });

  it("answers 409 with the other message when the key's job expired", async () => {
    expect((await post(braceletBody)).status).toBe(201);
    service.clock.advance(7 * 24 * 3600 * 1000);
    const e = await errorOf(await post(braceletBody));
    expect([e.status, e.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
    expect(e.message).toBe('This Idempotency-Key belongs to a job that is expired.');
  });

  it("scopes keys to the caller's address", async () => {
    const a: any = await (await post(braceletBody, KEY, '198.51.100.1')).json();
    const other = await post(braceletBody, KEY, '198.51.100.2');
    expect(other.status).toBe(201);
    expect(((await other.json()) as any).job.id).not.toBe(a.job.id);
  });

  it('stores a keyed hash of the key, never the key or the address', async () => {
    await post(braceletBody, KEY, '198.51.100.77');
    const { rows } = await service.db.orm.$client.execute('SELECT * FROM jobs');
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(KEY);
    expect(stored).not.toContain('198.51.100.77');
    expect(rows[0]!.idempotency_key_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a key outside 8-128 printable ASCII characters', async () => {
    for (const key of ['short', 'x'.repeat(129), 'has space inside', 'tab\there-long']) {
      const e = await errorOf(await post(braceletBody, key));
      expect([e.status, e.code]).toEqual([400, 'INVALID_REQUEST']);
      expect(e.message).toContain('Idempotency-Key');
    }
    expect((await post(braceletBody, '!'.repeat(8))).status).toBe(201);
    expect((await post(braceletBody, '~'.repeat(128))).status).toBe(201);
  });

  it('creates one job for concurrent requests with the same key', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(braceletBody)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 201]);
    const ids = new Set(await Promise.all(answers.map(async (r) => ((await r.json()) as any).job.id)));
    expect(ids.size).toBe(1);
    const { rows } = await service.db.orm.$client.execute('SELECT count(*) AS n FROM jobs');
    expect(Number(rows[0]!.n)).toBe(1);
  });

  it('creates separate jobs for the same body without a key', async () => {
    const a = await openJob(service);
    const b = await openJob(service);
    expect(a.id).not.toBe(b.id);
  });

  it('validates the body before replaying, so a bad body with a used key is a 400', async () => {
    expect((await post(braceletBody)).status).toBe(201);
    const e = await errorOf(await post({ ...braceletBody, extra: 1 }));
    expect([e.status, e.code]).toEqual([400, 'INVALID_REQUEST']);
  });
});
