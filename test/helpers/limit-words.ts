import { expect } from 'vitest';
import { encodePng, makePng } from './png.ts';
import { bearer, uploadPng, type OpenedJob } from './flows.ts';
import type { TestService } from './service.ts';

/*
 * Shared by the tests of numbers in words (test/config-numbers*.test.ts): uploads and answers that
 * reach each refusal and finding stating a configured limit.
 */

export const pngInit = (job: OpenedJob, body: Uint8Array): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'image/png', ...bearer(job.secret) },
  body: body as Uint8Array<ArrayBuffer>,
});

/** The error envelope of a REST refusal, with its status. */
export async function refusal(response: Response) {
  const body: any = await response.json();
  return { status: response.status, ...body.error } as {
    status: number;
    code: string;
    message: string;
    agent_instruction?: string;
  };
}

export const braceletOf = (lengthMm: number, widthMm: number) => ({
  productType: 'bracelet',
  size: { lengthMm },
  widthMm,
});

/** A black bar 1408 x 30 px on the contract's canvas: a piece thinner than 46.15:1, so outside both ranges. */
export function thinBarPng(): Buffer {
  const [width, height, x0, y0] = [1536, 1024, 64, 497];
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(width + 1, 255);
    row[0] = 0;
    if (y >= y0 && y < y0 + 30) row.fill(0, x0 + 1, x0 + 1 + 1408);
    rows.push(row);
  }
  return encodePng(width, height, 0, 8, Buffer.concat(rows));
}

/** The PROPORTION_MISMATCH finding of an upload's answer, with its severity. */
export async function proportionFinding(response: Response) {
  const { submission }: any = await response.json();
  const all = [...submission.validation.errors, ...submission.validation.warnings];
  const found = all.find((f: any) => f.code === 'PROPORTION_MISMATCH');
  expect(found, JSON.stringify(all.map((f: any) => f.code))).toBeDefined();
  return found as { severity: string; message: string; agent_instruction: string };
}

export const uploadsTillFull = async (service: TestService, job: OpenedJob, count: number) => {
  for (let seed = 1; seed <= count; seed++) {
    const png = makePng({ width: 600, height: 400, seed });
    service.pipeline.script(png, 'invalid');
    expect((await uploadPng(service, job, png)).status).toBe(422);
  }
  return uploadPng(service, job, makePng({ width: 600, height: 400, seed: count + 1 }));
};
