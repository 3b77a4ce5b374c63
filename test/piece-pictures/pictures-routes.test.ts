import { describe, expect, it } from 'vitest';
import { DAY } from '../../core/clock.ts';
import { buildConfig } from '../../core/config.ts';
import { jsonLogger } from '../../core/logger.ts';
import { he } from '../../web/strings.ts';
import { bearer, braceletBody, openJob, roomyRateLimits, uploadPng, type OpenedJob } from '../helpers/flows.ts';
import { makePng } from '../helpers/png.ts';
import { removeDir, SITE, startService, servicePerTest, type TestService } from '../helpers/service.ts';

/**
 * Who gets the piece pictures and how they are answered: `/a/{token}/flat.png` and `/worn.png`
 * exactly while the link is live, `/designs/{id}/…` for the design's owner only. The scripted
 * pipeline's cutting file (one small triangle) is a real cutting file for the pictures.
 */

const roomy = { limits: roomyRateLimits };
const FORM = 'application/x-www-form-urlencoded';
const KINDS = ['flat', 'worn'] as const;

function pngSize(bytes: Uint8Array): { width: number; height: number } {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

describe('the piece pictures’ routes', () => {
  const service = servicePerTest({ config: roomy });
  let seed = 1;

  async function readyJob(body: unknown = braceletBody): Promise<OpenedJob & { token: string }> {
    const job = await openJob(service, body);
    const response = await uploadPng(service, job, makePng({ width: 300, height: 300, seed: seed++ }));
    expect(response.status).toBe(200);
    const { submission }: any = await response.json();
    return { ...job, token: submission.approval.url.split('/a/')[1] };
  }

  const get = (path: string, session?: string, method = 'GET') =>
    service.fetch(path, { method, headers: session ? { cookie: `jds=${session}` } : {} });

  async function expectSite404(response: Response): Promise<void> {
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain(he.notFound.title);
  }

  it.each(KINDS)(
    'GET /a/{token}/%s.png is a PNG of the page’s size, not stored anywhere on the way, the same bytes each time',
    async (kind) => {
      const job = await readyJob();
      const response = await get(`/a/${job.token}/${kind}.png`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      const bytes = new Uint8Array(await response.arrayBuffer());
      const page = await (await get(`/a/${job.token}`)).text();
      const { width, height } = pngSize(bytes);
      expect(page).toContain(`<img src="/a/${job.token}/${kind}.png" width="${width}" height="${height}"`);
      const again = new Uint8Array(await (await get(`/a/${job.token}/${kind}.png`)).arrayBuffer());
      expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);
    },
  );

  it('HEAD answers the headers of GET without a body', async () => {
    const job = await readyJob();
    const head = await get(`/a/${job.token}/worn.png`, undefined, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/png');
    expect(head.headers.get('cache-control')).toBe('no-store');
    expect(await head.text()).toBe('');
  });

  it.each(KINDS)(
    '/a/{token}/%s.png is the site’s 404 page for unknown, malformed, cancelled and expired links',
    async (kind) => {
      await expectSite404(await get(`/a/abcDEF234xyz/${kind}.png`));
      await expectSite404(await get(`/a/${encodeURIComponent('<script>')}/${kind}.png`));
      const cancelled = await readyJob();
      const cancel = await service.api(`/jobs/${cancelled.id}`, {
        method: 'DELETE',
        headers: bearer(cancelled.secret),
      });
      expect(cancel.status).toBe(200);
      await expectSite404(await get(`/a/${cancelled.token}/${kind}.png`));
      const expiring = await readyJob();
      expect((await get(`/a/${expiring.token}/${kind}.png`)).status).toBe(200);
      service.clock.advance(8 * DAY);
      await expectSite404(await get(`/a/${expiring.token}/${kind}.png`));
    },
  );

  it('a design’s pictures: the owner gets them (private), nobody else does, a visitor without a session signs in first', async () => {
    const job = await readyJob();
    const owner = await signUp('owner@example.com');
    const adopted = await postForm(`/api/agent/v1/handoff/${job.token}/adopt`, { submissionNo: '1' }, owner);
    expect(adopted.status).toBe(303);
    const designPath = adopted.headers.get('location')!;
    expect(designPath).toMatch(/^\/designs\/[0-9a-f-]{36}$/);
    const other = await signUp('other@example.com');

    for (const kind of KINDS) {
      const mine = await get(`${designPath}/${kind}.png`, owner);
      expect(mine.status).toBe(200);
      expect(mine.headers.get('content-type')).toBe('image/png');
      expect(mine.headers.get('cache-control')).toBe('private, no-store');
      expect(mine.headers.get('x-content-type-options')).toBe('nosniff');
      // The approved submission's picture: the same piece, worn the same way.
      const onLink = await get(`/a/${job.token}/${kind}.png`);
      expect(Buffer.from(await mine.arrayBuffer()).equals(Buffer.from(await onLink.arrayBuffer()))).toBe(true);

      await expectSite404(await get(`${designPath}/${kind}.png`, other));
      const visitor = await get(`${designPath}/${kind}.png`);
      expect(visitor.status).toBe(303);
      expect(visitor.headers.get('location')).toBe(`/signin?next=${encodeURIComponent(designPath)}`);
      await expectSite404(await get(`/designs/00000000-0000-4000-8000-000000000000/${kind}.png`, owner));
    }
    const page = await (await get(designPath, owner)).text();
    expect(page).toContain(`<img src="${designPath}/worn.png"`);
    expect(page).toContain(`<img src="${designPath}/flat.png"`);
  });

  const postForm = (path: string, fields: Record<string, string>, session?: string) =>
    service.fetch(path, {
      method: 'POST',
      headers: { 'content-type': FORM, origin: SITE, ...(session ? { cookie: `jds=${session}` } : {}) },
      body: new URLSearchParams(fields).toString(),
    });

  async function signUp(email: string): Promise<string> {
    const response = await postForm('/signup', { email, password: 'correct horse battery' });
    expect(response.status).toBe(303);
    return /^jds=([^;]+);/.exec(response.headers.get('set-cookie') ?? '')![1]!;
  }
});

describe('the piece pictures when something is off', () => {
  it('while the API is switched off, the link’s pictures are the site’s 404 page', async () => {
    const service = await startService({ apiEnabled: false });
    try {
      for (const kind of KINDS) expect((await service.fetch(`/a/abcDEF234xyz/${kind}.png`)).status).toBe(404);
    } finally {
      await service.close();
      removeDir(service.dir);
    }
  });

  it('the pictures’ sizes come from the live configuration, and a bad one is refused by name', async () => {
    expect(() => buildConfig({ pictures: { worn: { elevationDeg: 90 } } })).toThrow(/pictures\.worn\.elevationDeg/);
    expect(() => buildConfig({ pictures: { flat: { widthPx: 900 } } })).toThrow(/pictures\.flat/);
    const pictures = { flat: { maxWidthPx: 900 }, worn: { maxWidthPx: 500, maxHeightPx: 500 } };
    const service = await startService({ config: { ...roomy, pictures } });
    try {
      const job = await openJob(service);
      const { submission }: any = await (await uploadPng(service, job, makePng({ width: 300, height: 300 }))).json();
      const token = submission.approval.url.split('/a/')[1];
      const flat = pngSize(new Uint8Array(await (await service.fetch(`/a/${token}/flat.png`)).arrayBuffer()));
      const worn = pngSize(new Uint8Array(await (await service.fetch(`/a/${token}/worn.png`)).arrayBuffer()));
      expect(flat.width).toBeLessThanOrEqual(900);
      expect(flat.width).toBeGreaterThan(850);
      expect(Math.max(worn.width, worn.height)).toBeLessThanOrEqual(500);
      const page = await (await service.fetch(`/a/${token}`)).text();
      expect(page).toContain(`width="${flat.width}" height="${flat.height}"`);
      expect(page).toContain(`width="${worn.width}" height="${worn.height}"`);
    } finally {
      await service.close();
      removeDir(service.dir);
    }
  });

  it('a stored file that is not a cutting file gets the 404 page and a log line, never a 500', async () => {
    const lines: string[] = [];
    const service: TestService = await startService({ config: roomy, log: jsonLogger((line) => lines.push(line)) });
    try {
      const job = await openJob(service);
      expect((await uploadPng(service, job, makePng({ width: 300, height: 300 }))).status).toBe(200);
      await service.db.orm.$client.execute({
        sql: `UPDATE submissions SET cutouts_svg = ? WHERE job_id = ?`,
        args: ['<svg viewBox="0 0 10 2"><path d="M0 0 C1 1 2 2 3 3Z"/></svg>', job.id],
      });
      const token = (
        (await (await service.api(`/jobs/${job.id}`, { headers: bearer(job.secret) })).json()) as any
      ).job.approval.url.split('/a/')[1];
      const response = await service.fetch(`/a/${token}/flat.png`);
      expect(response.status).toBe(404);
      const logged = lines.map((line) => JSON.parse(line)).filter((l) => l.event === 'piece_picture_unreadable');
      expect(logged).toHaveLength(1);
      expect(logged[0].reason).toMatch(/other than M, L, Z/);
    } finally {
      await service.close();
      removeDir(service.dir);
    }
  });
});
