import type { RateLimitObserver, RateLimitReport } from '../core/index.ts';

/*
 * `RateLimit-Policy` and `RateLimit` (IETF draft-ietf-httpapi-ratelimit-headers-08/-09): lists of
 * structured-field items, `"name";q=<quota>;w=<window s>` and `"name";r=<remaining>;t=<reset s>`,
 * written from the report the limiter read while it counted this request. How the numbers are derived: docs/decisions.md, "Rate limits".
 */

/** An RFC 8941 sf-string. Bucket names are plain identifiers, but a name is never trusted to be. */
const sfString = (value: string): string => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** The two headers for a report; none without one (the request never reached the buckets). */
function rateLimitHeaders(report: RateLimitReport | undefined): Record<string, string> {
  if (!report) return {};
  const headers: Record<string, string> = {
    'ratelimit-policy': report.policies.map((p) => `${sfString(p.name)};q=${p.quota};w=${p.windowSec}`).join(', '),
  };
  if (report.closest.length > 0) {
    headers.ratelimit = report.closest.map((s) => `${sfString(s.name)};r=${s.remaining};t=${s.resetSec}`).join(', ');
  }
  return headers;
}

/** Hands a core call an observer, then gives the headers of whatever it heard. */
export function rateLimitListener(): { observe: RateLimitObserver; headers: () => Record<string, string> } {
  let heard: RateLimitReport | undefined;
  return {
    observe: (report) => {
      heard = report;
    },
    headers: () => rateLimitHeaders(heard),
  };
}
