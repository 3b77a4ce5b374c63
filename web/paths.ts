/** Paths of the approval page and its steps, shared by the pages and the http adapter's redirects. */

/** The approval page's own path; with a refusal's code in `?e=` for the page to explain it. */
export const approvalPath = (token: string, code?: string): string =>
  `/a/${encodeURIComponent(token)}${code ? `?e=${encodeURIComponent(code)}` : ''}`;

/** The confirmation step of an approval: the page that finishes it with one press. */
export const confirmPath = (token: string, submissionNo: number): string =>
  `${approvalPath(token)}/approve?n=${encodeURIComponent(String(submissionNo))}`;

/** The confirmation step's path for a path on the site, if it is one: sign-in then says why it is asked. */
export const isConfirmPath = (path: string | undefined): boolean =>
  path !== undefined && /^\/a\/[^/?#]+\/approve(\?|$)/.test(path);
