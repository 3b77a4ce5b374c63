import { blob, index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** Times are milliseconds since the epoch (UTC); JSON columns hold serialised contract shapes. */
export const jobs = sqliteTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    secretHash: text('secret_hash').notNull(),
    /** Stored status; `expired` is never stored, it is read from `expiresAt` and the clock. */
    status: text('status', { enum: ['open', 'ready', 'approved', 'declined', 'cancelled'] }).notNull(),
    productType: text('product_type', { enum: ['bracelet', 'ring'] }).notNull(),
    lengthMm: real('length_mm').notNull(),
    widthMm: real('width_mm').notNull(),
    gapMm: real('gap_mm').notNull(),
    thicknessMm: real('thickness_mm').notNull(),
    sizeInput: text('size_input', { mode: 'json' }).notNull(),
    attribution: text('attribution', { mode: 'json' }),
    price: text('price', { mode: 'json' }).notNull(),
    idempotencyKeyHash: text('idempotency_key_hash').unique(),
    requestHash: text('request_hash'),
    createdAt: integer('created_at').notNull(),
    /** The live lifetime: creation + 7 days, or earlier after a decline. */
    expiresAt: integer('expires_at').notNull(),
    declinedAt: integer('declined_at'),
    cancelledAt: integer('cancelled_at'),
    approvalToken: text('approval_token').unique(),
    approvalStatus: text('approval_status', { enum: ['pending', 'approved', 'declined'] }),
    /** The ready submission the approval link shows. */
    currentSubmissionNo: integer('current_submission_no'),
    /**
     * Why the person declined, from the approval page's form (`DeclineReason` in
     * core/handoff/decline-reason.ts); set (or cleared) by each decline. Shown only while declined.
     */
    declineReason: text('decline_reason', { mode: 'json' }),
  },
  (t) => [
    index('jobs_expires_at').on(t.expiresAt),
    // The retention sweep finds ended jobs by status and the time their retention starts.
    index('jobs_status_cancelled_at').on(t.status, t.cancelledAt),
    index('jobs_status_expires_at').on(t.status, t.expiresAt),
  ],
);

export const submissions = sqliteTable(
  'submissions',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    no: integer('no').notNull(),
    status: text('status', {
      enum: ['processing', 'ready', 'failed_validation', 'failed_processing'],
    }).notNull(),
    sha256: text('sha256').notNull(),
    counted: integer('counted', { mode: 'boolean' }).notNull().default(false),
    validation: text('validation', { mode: 'json' }),
    geometry: text('geometry', { mode: 'json' }),
    cutoutsSvg: text('cutouts_svg'),
    previewSvg: text('preview_svg'),
    /**
     * A greyscale copy of the uploaded drawing, at most the recommended canvas width, kept for the
     * findings picture (core/submissions/findings-picture); deleted with the submission.
     */
    drawingPng: blob('drawing_png', { mode: 'buffer' }),
    /** The uploaded image's own `{ width, height }`: findings' `px` are in those pixels. */
    drawingSourcePx: text('drawing_source_px', { mode: 'json' }),
    /**
     * Where the strip lies in the uploaded image (`StripInImage`: the piece's box in its pixels and
     * the strip's millimetres), as the pipeline found it. Null on rows from before it was kept and
     * on drawings whose piece was never found; the findings picture then finds it again.
     */
    stripPlacement: text('strip_placement', { mode: 'json' }),
    createdAt: integer('created_at').notNull(),
    finishedAt: integer('finished_at'),
    durationMs: integer('duration_ms'),
    /**
     * The engine and parameters the upload was analysed under (`EngineRecord` in
     * core/submissions/engine.ts); written when the row is reserved. Null on rows from before it.
     */
    engine: text('engine', { mode: 'json' }),
    /**
     * Which process runs a `processing` row and until when (core/maintenance/upload-leases.ts):
     * a random id per process, its host name and pid, and a lease it renews while it works.
     * Null on rows from before leases, which only the 3-minute rule closes.
     */
    ownerId: text('owner_id'),
    ownerHost: text('owner_host'),
    ownerPid: integer('owner_pid'),
    leaseUntil: integer('lease_until'),
  },
  (t) => [
    primaryKey({ columns: [t.jobId, t.no] }),
    index('submissions_job_sha').on(t.jobId, t.sha256),
    // The sweep closes `processing` rows older than 3 minutes without scanning the table.
    index('submissions_status_created_at').on(t.status, t.createdAt),
  ],
);

/** One row per request a rate-limit bucket counted; shared by every instance on the database. */
export const rateHits = sqliteTable(
  'rate_hits',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    bucket: text('bucket').notNull(),
    at: integer('at').notNull(),
  },
  (t) => [index('rate_hits_bucket_at').on(t.bucket, t.at), index('rate_hits_at').on(t.at)],
);

/** Server-side secrets generated on first start (for example the idempotency HMAC key). */
export const serverKeys = sqliteTable('server_keys', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

export type JobRow = typeof jobs.$inferSelect;
export type SubmissionRow = typeof submissions.$inferSelect;

/** People's accounts on the site (approval page). Passwords are stored as scrypt hashes only. */
export const accounts = sqliteTable('accounts', {
  id: text('id').primaryKey(),
  /** Lower-cased, trimmed. */
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  createdAt: integer('created_at').notNull(),
});

/** Site sessions: the cookie holds a random token; only its SHA-256 is stored. */
export const sessions = sqliteTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('sessions_account').on(t.accountId), index('sessions_expires_at').on(t.expiresAt)],
);

/** A design copied into a person's account when they approve a job (one per job). */
export const designs = sqliteTable(
  'designs',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    jobId: text('job_id').notNull().unique(),
    submissionNo: integer('submission_no').notNull(),
    productType: text('product_type', { enum: ['bracelet', 'ring'] }).notNull(),
    geometry: text('geometry', { mode: 'json' }).notNull(),
    price: text('price', { mode: 'json' }).notNull(),
    cutoutsSvg: text('cutouts_svg').notNull(),
    previewSvg: text('preview_svg').notNull(),
    /**
     * How the piece is worn, copied from the job (it outlives the job): the size the agent asked
     * for, the cuff's gap and the metal's thickness. Null on designs from before they were kept.
     */
    sizeInput: text('size_input', { mode: 'json' }),
    gapMm: real('gap_mm'),
    thicknessMm: real('thickness_mm'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('designs_account').on(t.accountId)],
);

export type DesignRow = typeof designs.$inferSelect;

/**
 * MCP job handles: the server-side state of an MCP session. The job secret never reaches the
 * model; it is kept here encrypted (AES-256-GCM under the `secret-box` server key), so every
 * instance on the database can act for the session. `handle` is a random, unguessable name for
 * the row, shaped so a session-less client (MCP 2026-07-28) can later pass it as a tool argument.
 */
export const mcpJobHandles = sqliteTable(
  'mcp_job_handles',
  {
    handle: text('handle').primaryKey(),
    /** The MCP session id (`http:<id>`), or `stdio:<process uuid>` for a stdio server. */
    sessionKey: text('session_key').notNull(),
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    secretEncrypted: text('secret_encrypted').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('mcp_job_handles_session_job').on(t.sessionKey, t.jobId), index('mcp_job_handles_job').on(t.jobId)],
);

/**
 * One row that `/healthz` rewrites to prove the database takes writes (db/readiness.ts): a
 * full disk or a read-only database fails that write while reads still answer.
 */
export const healthProbe = sqliteTable('health_probe', {
  id: integer('id').primaryKey(),
  at: integer('at').notNull(),
});
