import { and, desc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/database.ts';
import { jobs, submissions, type JobRow, type SubmissionRow } from '../../db/schema.ts';
import type { SlotUse } from './job-view.ts';

export async function findJob(q: Queryable, id: string): Promise<JobRow | undefined> {
  const [row] = await q.select().from(jobs).where(eq(jobs.id, id));
  return row;
}

export async function findJobByIdempotencyHash(q: Queryable, hash: string): Promise<JobRow | undefined> {
  const [row] = await q.select().from(jobs).where(eq(jobs.idempotencyKeyHash, hash));
  return row;
}

export async function latestSubmission(q: Queryable, jobId: string): Promise<SubmissionRow | undefined> {
  const [row] = await q
    .select()
    .from(submissions)
    .where(eq(submissions.jobId, jobId))
    .orderBy(desc(submissions.no))
    .limit(1);
  return row;
}

export async function findSubmission(q: Queryable, jobId: string, no: number): Promise<SubmissionRow | undefined> {
  const [row] = await q
    .select()
    .from(submissions)
    .where(and(eq(submissions.jobId, jobId), eq(submissions.no, no)));
  return row;
}

export async function slotUse(q: Queryable, jobId: string): Promise<SlotUse & { maxNo: number }> {
  const [row] = await q
    .select({
      counted: sql<number>`coalesce(sum(${submissions.counted}), 0)`,
      processing: sql<number>`coalesce(sum(${submissions.status} = 'processing'), 0)`,
      maxNo: sql<number>`coalesce(max(${submissions.no}), 0)`,
    })
    .from(submissions)
    .where(eq(submissions.jobId, jobId));
  return {
    counted: Number(row?.counted ?? 0),
    processing: Number(row?.processing ?? 0),
    maxNo: Number(row?.maxNo ?? 0),
  };
}
