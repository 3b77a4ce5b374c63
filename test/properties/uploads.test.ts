/* Any body and content type on an upload: a submission or a catalogue answer, the quota kept. */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../core/errors.ts';
import { headerValue } from '../helpers/arbitraries.ts';
import { bearer, openJob } from '../helpers/flows.ts';
import { expectCatalogueAnswer } from '../helpers/invariants.ts';
import { propertyService, runs, TIMEOUT } from '../helpers/property-runs.ts';

const { service, rows, expectConsistentDatabase, expectQuotaMatchesRows, freshPng } = propertyService();

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const UPLOAD_CODES: ErrorCode[] = [
  'INVALID_FILE',
  'UNSUPPORTED_FORMAT',
  'FILE_TOO_LARGE',
  'IMAGE_TOO_SMALL',
  'IMAGE_TOO_LARGE',
  'INVALID_REQUEST',
  'TOO_MANY_SUBMISSIONS',
];

/** The PNG with one byte changed (a header, a length, a CRC or the image data). */
function flip(png: Buffer, at: number, by: number): Buffer {
  const copy = Buffer.from(png);
  const i = at % copy.length;
  copy[i] = (copy[i]! + 1 + (by % 255)) % 256;
  return copy;
}

describe('POST /jobs/{jobId}/submissions with any body and content type', () => {
  it(
    'stores exactly the distinct PNGs it answered 200, and refuses the rest from the catalogue',
    async () => {
      const png = freshPng();
      const bytesOf = fc.oneof(
        { weight: 3, arbitrary: fc.constant(null).map(() => freshPng()) },
        { weight: 2, arbitrary: fc.tuple(fc.nat(), fc.nat(255)).map(([at, by]) => flip(png, at, by)) },
        { weight: 1, arbitrary: fc.nat().map((n) => png.subarray(0, n % png.length)) },
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)) },
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 16 }).map((b) => Buffer.concat([png, b])) },
      );
      const wrapping = fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom('image/png', 'IMAGE/PNG; q=1').map((type) => ({ type })) },
        {
          weight: 2,
          arbitrary: fc
            .record({
              field: fc.constantFrom('image', 'image', 'file', 'Image'),
              partType: fc.constantFrom('image/png', '', 'application/octet-stream', 'text/plain', 'image/jpeg'),
              asText: fc.boolean(),
            })
            .map((part) => ({ part })),
        },
        {
          weight: 1,
          arbitrary: fc
            .oneof(
              fc.constantFrom('text/plain', 'application/json', '', 'multipart/form-data'),
              fc.string({ maxLength: 20 }),
            )
            .map((type) => ({ type })),
        },
      );
      const upload = fc.record({
        bytes: fc.oneof(
          bytesOf,
          fc.nat().map((i) => ({ again: i })),
        ),
        wrapping,
      });
      await fc.assert(
        fc.asyncProperty(fc.array(upload, { minLength: 1, maxLength: 12 }), async (uploads) => {
          const job = await openJob(service);
          const sent: Buffer[] = [];
          const numberOf = new Map<string, number>();
          for (const { bytes: choice, wrapping: w } of uploads) {
            const bytes = Buffer.isBuffer(choice) ? choice : (sent[choice.again % Math.max(1, sent.length)] ?? png);
            sent.push(bytes);
            const headers: Record<string, string> = bearer(job.secret);
            let body: BodyInit = bytes as BodyInit;
            if ('part' in w) {
              const form = new FormData();
              const { field, partType, asText } = w.part!;
              if (asText) form.set(field, bytes.toString('latin1'));
              else form.set(field, new Blob([bytes as BlobPart], { type: partType }), 'drawing.png');
              body = form;
            } else if (headerValue(w.type) !== undefined) headers['content-type'] = w.type;
            const response = await service.api(`/jobs/${job.id}/submissions`, { method: 'POST', headers, body });
            const where = `${response.status} for ${bytes.length} bytes as ${JSON.stringify(w)}`;
            const answer = response.clone();
            const code = await expectCatalogueAnswer(response, where);
            if (code) expect(UPLOAD_CODES, where).toContain(code);
            if (answer.status !== 200) continue;
            expect(bytes.subarray(0, 8).toString('hex'), where).toBe('89504e470d0a1a0a');
            const { submission }: any = await answer.json();
            const earlier = numberOf.get(sha(bytes));
            // Identical bytes replay their stored outcome; new bytes take the next number.
            expect(submission.no, where).toBe(earlier ?? numberOf.size + 1);
            numberOf.set(sha(bytes), submission.no);
          }
          const stored = await rows('SELECT sha256, counted FROM submissions WHERE job_id = ? ORDER BY no', [job.id]);
          expect(stored.map((row) => row.sha256)).toEqual([...numberOf.keys()]);
          expect(stored.every((row) => Number(row.counted) === 1)).toBe(true);
          await expectQuotaMatchesRows(job);
          await expectConsistentDatabase();
        }),
        runs(30),
      );
    },
    TIMEOUT,
  );
});
