import type { TestService } from './service.ts';

/**
 * Puts a job into a state that only the people's side (approval page) can reach, which has
 * its own issue: written straight into the database as the approval flow would leave it.
 */
export async function setJobState(service: TestService, jobId: string, state: 'approved' | 'declined'): Promise<void> {
  const now = service.clock.now();
  if (state === 'approved') {
    await service.db.orm.$client.execute({
      sql: "UPDATE jobs SET status = 'approved', approval_status = 'approved' WHERE id = ?",
      args: [jobId],
    });
    return;
  }
  await service.db.orm.$client.execute({
    sql: `UPDATE jobs SET status = 'declined', approval_status = 'declined', declined_at = ?,
            expires_at = min(?, created_at + 7 * 86400000) WHERE id = ?`,
    args: [now, now + 24 * 3600 * 1000, jobId],
  });
}
