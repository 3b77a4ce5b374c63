import { describe, expect, it } from 'vitest';
import { he } from '../../web/strings.ts';
import { bearer, openJob, uploadPng } from '../helpers/flows.ts';
import { makePng } from '../helpers/png.ts';
import { servicePerTest } from '../helpers/service.ts';

const service = servicePerTest();

describe('an unexpected failure under a page', () => {
  it('the approval page whose database is gone answers the Hebrew 500 page, not the API envelope', async () => {
    const job = await openJob(service);
    const upload = await uploadPng(service, job, makePng({ width: 300, height: 300 }));
    const token: string = ((await upload.json()) as any).submission.approval.url.split('/a/')[1];
    service.db.close();

    const response = await service.fetch(`/a/${token}`);
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toMatch(/^<!doctype html>\n<html lang="he" dir="rtl">/);
    expect(html).toContain(he.serverError.title);
    expect(html).not.toContain('PROCESSING_FAILED');
    expect(html).not.toContain(token);
  });

  it('an API route whose database is gone keeps the JSON envelope', async () => {
    const job = await openJob(service);
    service.db.close();
    const api = await service.api(`/jobs/${job.id}`, { headers: bearer(job.secret) });
    expect(api.status).toBe(500);
    expect(api.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(((await api.json()) as any).error.code).toBe('PROCESSING_FAILED');
  });
});
