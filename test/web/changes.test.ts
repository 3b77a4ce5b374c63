import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DAY } from '../../core/clock.ts';
import type { ApprovalView } from '../../core/handoff/types.ts';
import { renderApprovalPage } from '../../web/pages/approval.ts';
import { he } from '../../web/strings.ts';
import { designFixture } from '../fixtures/pipeline/designs.ts';
import { severalChangesPng, SEVERAL_CHANGES_JOB } from '../fixtures/pipeline/several-changes.ts';
import { bearer, openJob, roomyRateLimits, uploadPng, type OpenedJob } from '../helpers/flows.ts';
import { servicePerFile } from '../helpers/service.ts';

/** What the engine changed, on the approval page: the section, its lines and `/a/{token}/changes.png`. */

const HOSTILE = '<script>alert(1)</script>';

function view(overrides: Partial<ApprovalView> = {}): ApprovalView {
  return {
    token: 'abcDEF234xyz',
    status: 'pending',
    productType: 'bracelet',
    submissionNo: 2,
    geometry: { lengthMm: 155, widthMm: 20, drawnRatio: 7.75, stretch: 1, cuts: 6, openAreaPct: 3, estWeightGrams: 38 },
    price: { currency: 'ILS', base: 320, shipping: 30, total: 350, vatIncluded: true, note: 'n' },
    expiresAt: Date.UTC(2026, 10, 29, 12, 0, 0),
    wear: { sizeInput: { wristMm: 160 }, gapMm: 25, thicknessMm: 1.5 },
    worn: { product: 'bracelet', wristMm: 160, fit: 'comfort', gapMm: 25, fromLength: false },
    pictures: { flat: { width: 2000, height: 420 }, worn: { width: 1600, height: 1403 } },
    notes: [],
    changesPicture: false,
    ...overrides,
  };
}

/** The `<li>` lines of the changes list: [number, code, text]. */
function changeLines(html: string): [string, string, string][] {
  return [...html.matchAll(/<li value="(\d+)" data-code="([A-Z_]+)">([^<]*)<\/li>/g)].map((m) => [m[1]!, m[2]!, m[3]!]);
}

describe('the changes section (hand-made views)', () => {
  it('lists one Hebrew line per warning, numbered as the picture numbers them, below the preview', () => {
    const html = renderApprovalPage({
      view: view({
        notes: [
          { no: 1, code: 'PROPORTION_MISMATCH', places: 0, repair: false },
          { no: 2, code: 'ISLAND_BRIDGED', places: 1, repair: true },
          { no: 3, code: 'OPENING_REMOVED', places: 4, repair: true },
        ],
        changesPicture: true,
      }),
      viewer: undefined,
      thicknessMm: 1.5,
      declineReasonMaxChars: 500,
    });
    expect(changeLines(html)).toEqual([
      ['1', 'PROPORTION_MISMATCH', he.changes.lines.PROPORTION_MISMATCH],
      ['2', 'ISLAND_BRIDGED', he.changes.lines.ISLAND_BRIDGED],
      ['3', 'OPENING_REMOVED', `${he.changes.lines.OPENING_REMOVED} ${he.changes.places('4')}`],
    ]);
    expect(html).toContain('<img src="/a/abcDEF234xyz/changes.png"');
    expect(html.indexOf('pictures-heading')).toBeLessThan(html.indexOf('changes-heading'));
    expect(html.indexOf('changes-heading')).toBeLessThan(html.indexOf('facts-heading'));
  });

  it('shows the lines without a picture when no repair has a place, and nothing without repairs', () => {
    const noPlace = renderApprovalPage({
      view: view({ notes: [{ no: 1, code: 'SPURS_SHAVED', places: 0, repair: true }] }),
      viewer: undefined,
      thicknessMm: 1.5,
      declineReasonMaxChars: 500,
    });
    expect(changeLines(noPlace)).toHaveLength(1);
    expect(noPlace).not.toContain('changes.png');
    const notesOnly = renderApprovalPage({
      view: view({ notes: [{ no: 1, code: 'NOT_TWO_TONE', places: 0, repair: false }] }),
      viewer: undefined,
      thicknessMm: 1.5,
      declineReasonMaxChars: 500,
    });
    expect(notesOnly).not.toContain('changes-heading');
  });

  it('escapes the token in the picture address', () => {
    const html = renderApprovalPage({
      view: view({
        token: HOSTILE,
        notes: [{ no: 1, code: 'ISLAND_REMOVED', places: 1, repair: true }],
        changesPicture: true,
      }),
      viewer: undefined,
      thicknessMm: 1.5,
      declineReasonMaxChars: 500,
    });
    expect(html).not.toContain('<script');
    expect(html).toContain(`/a/${encodeURIComponent(HOSTILE)}/changes.png`);
  });
});

describe('the changes picture through the app, from real drawings', () => {
  const service = servicePerFile({ config: { limits: roomyRateLimits }, realPipeline: true });

  const { productType, lengthMm, widthMm } = SEVERAL_CHANGES_JOB;
  const openBracelet = () => openJob(service, { productType, size: { lengthMm }, widthMm });

  async function upload(job: OpenedJob, png: Buffer) {
    const response = await uploadPng(service, job, png);
    const { submission }: any = await response.json();
    return { status: response.status, submission };
  }

  it('serves the link’s submission’s picture, lists each change on the page, and follows the link to a newer submission', async () => {
    const job = await openBracelet();
    const first = await upload(job, await severalChangesPng('ready'));
    expect(first.status).toBe(200);
    const codes = first.submission.validation.warnings.map((w: any) => w.code).sort();
    expect(codes).toEqual(['ISLAND_BRIDGED', 'NECK_THICKENED', 'OPENING_REMOVED']);
    const token: string = first.submission.approval.url.split('/a/')[1];

    const picture = await service.fetch(`/a/${token}/changes.png`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
    expect(picture.headers.get('cache-control')).toBe('no-store');
    expect(picture.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = Buffer.from(await picture.arrayBuffer());
    // The same picture the agent gets with its secret.
    const agents = await service.api(`/jobs/${job.id}/submissions/${first.submission.no}/findings.png`, {
      headers: bearer(job.secret),
    });
    expect(Buffer.from(await agents.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await sharp(bytes).metadata()).width).toBe(1536);

    const page = await (await service.fetch(`/a/${token}`)).text();
    const lines = changeLines(page);
    expect(lines.map(([no, code]) => [Number(no), code])).toEqual(
      first.submission.validation.warnings.map((w: any, i: number) => [i + 1, w.code]),
    );
    for (const [, code, text] of lines) expect(text).toContain(he.changes.lines[code as 'ISLAND_BRIDGED']);

    // A clean resubmission takes the link over: no changes, so no picture and no section.
    const second = await upload(job, await designFixture('clean-holes').png());
    expect(second.status).toBe(200);
    expect((await service.fetch(`/a/${token}/changes.png`)).status).toBe(404);
    expect(await (await service.fetch(`/a/${token}`)).text()).not.toContain('changes-heading');
  });

  it('answers the site 404 page for unknown, expired and cancelled links', async () => {
    const unknown = await service.fetch('/a/abcDEF234xyz/changes.png');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toBe('text/html; charset=utf-8');

    const job = await openBracelet();
    const ready = await upload(job, await severalChangesPng('ready'));
    const token: string = ready.submission.approval.url.split('/a/')[1];
    expect((await service.fetch(`/a/${token}/changes.png`)).status).toBe(200);
    service.clock.advance(8 * DAY);
    expect((await service.fetch(`/a/${token}/changes.png`)).status).toBe(404);
    service.clock.advance(-8 * DAY);

    const cancelled = await service.api(`/jobs/${job.id}`, { method: 'DELETE', headers: bearer(job.secret) });
    expect(cancelled.status).toBe(200);
    expect((await service.fetch(`/a/${token}/changes.png`)).status).toBe(404);
  });
});
