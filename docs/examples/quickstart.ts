/**
 * From zero to an approval link with Node 20's fetch, no SDK: read capabilities, open a bracelet
 * job, draw a design at the job's hints, upload it, print the findings or the approval link.
 * With `--wait`, poll the job until the person approves or declines.
 *
 *   SITE_URL=http://localhost:8787 npx node docs/examples/quickstart.ts [--wait]
 */
/* eslint-disable no-restricted-globals -- an agent's client: fetch is exactly what it should use */
import { randomUUID } from 'node:crypto';
import { drawDesign } from './make-design.ts';

const site = process.env.SITE_URL ?? 'http://localhost:8787';
const base = `${site}/api/agent/v1`;

interface ErrorBody {
  error: { code: string; message: string; agent_instruction?: string; retryable?: boolean };
}
interface Finding {
  code: string;
  severity: 'error' | 'warning';
  message: string;
  agent_instruction: string;
  locations?: Array<{ x: number; y: number; r: number }>;
}
interface Approval {
  url: string;
  status: 'pending' | 'approved' | 'declined';
  expiresAt: string;
}
interface Job {
  id: string;
  status: string;
  dims: { lengthMm: number; widthMm: number };
  drawing: { ratio: number; stripPx: { x: number; y: number; width: number; height: number } };
  limits: { submissionsLeft: number };
  approval: Approval | null;
}
interface Submission {
  no: number;
  status: string;
  validation: { valid: boolean; errors: Finding[]; warnings: Finding[] };
  approval: Approval | null;
  price: { total: number; currency: string };
}

/** Any answer outside `expected` is the contract's error envelope: show it and stop. */
async function call<T>(path: string, init: RequestInit, expected: number[]): Promise<{ status: number; body: T }> {
  const response = await fetch(`${base}${path}`, init);
  const body = (await response.json()) as T | ErrorBody;
  if (!expected.includes(response.status)) {
    const { error } = body as ErrorBody;
    throw new Error(`${response.status} ${error.code}: ${error.message} ${error.agent_instruction ?? ''}`);
  }
  return { status: response.status, body: body as T };
}

const capabilities = await call<{ limits: { pollIntervalSec: number }; approvalPage: { note: string } }>(
  '/capabilities',
  {},
  [200],
);

// The key lets a lost response be retried without opening a second job; keep it until you have the 201.
const created = await call<{ job: Job; credentials: { jobSecret: string } }>(
  '/jobs',
  {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ productType: 'bracelet', size: { wristMm: 160 }, widthMm: 20 }),
  },
  [201],
);
const { job } = created.body;
const auth = { authorization: `Bearer ${created.body.credentials.jobSecret}` };
console.log(`job ${job.id}: ${job.dims.lengthMm} x ${job.dims.widthMm} mm, draw at ratio ${job.drawing.ratio}`);

const png = await drawDesign(job.drawing.stripPx);
const uploaded = await call<{ submission: Submission }>(
  `/jobs/${job.id}/submissions`,
  { method: 'POST', headers: { ...auth, 'content-type': 'image/png' }, body: new Uint8Array(png) },
  [200, 422],
);
const { submission } = uploaded.body;
for (const f of [...submission.validation.errors, ...submission.validation.warnings]) {
  console.log(`${f.severity} ${f.code}: ${f.message}\n  do: ${f.agent_instruction}`);
}
if (uploaded.status === 422) {
  console.log(`submission ${submission.no} failed validation: fix the errors above and upload a changed image`);
  process.exit(1);
}
console.log(
  `submission ${submission.no} is ${submission.status}, ${submission.price.total} ${submission.price.currency}`,
);
console.log(`approval link for the person: ${submission.approval?.url}`);
console.log(capabilities.body.approvalPage.note);

if (process.argv.includes('--wait')) {
  const intervalMs = capabilities.body.limits.pollIntervalSec * 1000;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    const { body } = await call<{ job: Job }>(`/jobs/${job.id}`, { headers: auth }, [200]);
    const decision = body.job.approval?.status;
    console.log(`job ${body.job.status}, approval ${decision ?? 'none'}`);
    if (body.job.status !== 'ready') break;
  }
}
