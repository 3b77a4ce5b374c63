import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../core/clock.ts';
import { submissions } from '../../db/schema.ts';
import { designFixture } from '../fixtures/pipeline/designs.ts';
import { connectStdio, resourceLinks, textOf, type Era } from '../helpers/mcp.ts';
import { encodePng } from '../helpers/png.ts';
import { removeDir, SITE, startService, type TestService } from '../helpers/service.ts';

/**
 * The whole flow over stdio against the real server process (`node bin/jewellery-mcp.js`) and the
 * real image pipeline, once with a client of each protocol revision, with the people's side (the
 * handoff decline) served by an in-process app on the same database file.
 */
const FLOW_TIMEOUT_MS = 90_000;

let dir: string;
let stderr = '';
let service: TestService;
const clients = {} as Record<Era, Awaited<ReturnType<typeof connectStdio>>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-stdio-flow-'));
  // test.db: the file startService({ dir }) opens, so the in-process app shares the database.
  const env = { DATABASE_URL: `file:${join(dir, 'test.db')}`, SITE_URL: SITE };
  const keep = (chunk: string) => (stderr = (stderr + chunk).slice(-20_000));
  clients.legacy = await connectStdio('legacy', env, keep);
  clients.modern = await connectStdio('modern', env, keep);
  service = await startService({ dir, clock: new ManualClock(Date.now()) });
}, 60_000);
afterAll(async () => {
  await Promise.all(Object.values(clients).map((c) => c.client.close()));
  await service?.close();
  if (dir) removeDir(dir);
});

/** An all-white canvas: nothing drawn at all. */
function blankPng(width = 1536, height = 1024): Buffer {
  const row = Buffer.alloc(width + 1, 255);
  row[0] = 0;
  return encodePng(width, height, 0, 8, Buffer.concat(Array.from({ length: height }, () => row)));
}

describe.each(['legacy', 'modern'] as const)('stdio server process, real pipeline, a %s client', (era) => {
  it(
    'opens, fails, reads the instructions, passes with its SVGs linked, hands off, and sees the decline; never shows the secret',
    async () => {
      const results: CallToolResult[] = [];
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = await clients[era].call(name, args);
        results.push(result);
        return result;
      };
      const started = Date.now();

      const capabilities = await call('get_capabilities', {});
      expect(textOf(capabilities)).toContain('Products:');
      expect((capabilities.structuredContent as any).capabilities.limits.submissionsPerJob).toBe(10);

      const fixture = designFixture('clean-holes');
      const open = await call('open_job', {
        productType: fixture.job.productType,
        lengthMm: fixture.job.lengthMm,
        widthMm: fixture.job.widthMm,
      });
      expect(open.isError, textOf(open)).toBeFalsy();
      const { job, jobHandle } = open.structuredContent as any;
      expect(job.status).toBe('open');
      // A 2025-11-25 client names the job as it always has, by id; a 2026-07-28 client by handle.
      const named = era === 'legacy' ? { jobId: job.id } : { jobHandle };

      // A blank canvas: the real pipeline finds no design, and says what to do about it.
      const failed = await call('submit_design', { ...named, pngBase64: blankPng().toString('base64') });
      expect(failed.isError, `${textOf(failed)}\n${stderr}`).toBeFalsy();
      const failure = failed.structuredContent as any;
      expect(failure).toMatchObject({ status: 'failed_validation', valid: false, approval: null });
      const noDesign = failure.errors.find((f: { code: string }) => f.code === 'NO_DESIGN_FOUND');
      expect(noDesign, textOf(failed)).toBeDefined();
      expect(noDesign.agent_instruction.length).toBeGreaterThan(20);
      expect(textOf(failed)).toContain(noDesign.agent_instruction);
      expect(failed.content.some((c) => c.type === 'image' || c.type === 'resource_link')).toBe(false);

      // A clean strip with round holes, given as a local file path (stdio only).
      const png = await fixture.png();
      const file = join(dir, `clean-holes-${era}.png`);
      writeFileSync(file, png);
      const passed = await call('submit_design', { ...named, path: file });
      expect(passed.isError, `${textOf(passed)}\n${stderr}`).toBeFalsy();
      const ready = passed.structuredContent as any;
      expect(ready, textOf(passed)).toMatchObject({ status: 'ready', valid: true, errors: [], submissionNo: 2 });
      expect(ready.approval.url).toMatch(new RegExp(`^${SITE}/a/[A-Za-z0-9_-]+$`));
      expect(ready.approvalNote).toContain('Hebrew');
      expect(textOf(passed)).toContain(ready.approval.url);
      const images = passed.content.filter((c) => c.type === 'image');
      expect(images).toHaveLength(1);
      expect(images[0]).toMatchObject({ mimeType: 'image/png' });
      expect(await sharp(Buffer.from((images[0] as any).data, 'base64')).metadata()).toMatchObject({ format: 'png' });

      // The cutting file and the preview, linked and read through the handle: the stored files, real SVG.
      const links = resourceLinks(passed);
      expect(links.map((l) => l.uri)).toEqual([
        `jewellery://jobs/${jobHandle}/submissions/2/cutouts.svg`,
        `jewellery://jobs/${jobHandle}/submissions/2/preview.svg`,
      ]);
      const [stored] = await service.db.orm
        .select()
        .from(submissions)
        .where(and(eq(submissions.jobId, job.id), eq(submissions.no, 2)));
      for (const [link, expected] of [
        [links[0]!, stored!.cutoutsSvg],
        [links[1]!, stored!.previewSvg],
      ] as const) {
        const { contents } = await clients[era].client.readResource({ uri: link.uri });
        expect(contents).toEqual([{ uri: link.uri, mimeType: 'image/svg+xml', text: expected }]);
        const text = (contents[0] as { text: string }).text;
        expect(await sharp(Buffer.from(text)).metadata()).toMatchObject({ format: 'svg' });
      }

      // The same bytes as base64: the stored outcome, no new submission.
      const again = await call('submit_design', { ...named, pngBase64: png.toString('base64') });
      expect(again.structuredContent, textOf(again)).toMatchObject({
        status: 'ready',
        submissionNo: 2,
        approval: { url: ready.approval.url },
      });

      const waiting = await call('check_approval', named);
      expect(waiting.structuredContent).toMatchObject({ status: 'ready', approval: { status: 'pending' } });
      expect(resourceLinks(waiting).map((l) => l.uri)).toEqual(links.map((l) => l.uri));

      // The person declines on the approval page's side: the service's HTTP app on the same database.
      const token = ready.approval.url.split('/a/')[1];
      const decline = await service.api(`/handoff/${token}/decline`, { method: 'POST' });
      expect(decline.status, await decline.clone().text()).toBe(200);
      expect(await decline.json()).toEqual({ ok: true, status: 'declined' });

      const declined = await call('check_approval', named);
      expect(declined.structuredContent).toMatchObject({ status: 'declined', approval: { status: 'declined' } });

      for (const result of results) expect(JSON.stringify(result)).not.toMatch(/ajs_/);
      expect(stderr).not.toMatch(/ajs_/);
      expect(Date.now() - started).toBeLessThan(FLOW_TIMEOUT_MS);
    },
    FLOW_TIMEOUT_MS + 10_000,
  );
});
