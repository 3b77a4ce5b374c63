const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

const hostnameOf = (value: string, prefix = ''): string | undefined => {
  try {
    return new URL(`${prefix}${value}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
};

/**
 * DNS-rebinding protection for the MCP endpoint: the Host (port-agnostic) must be the site's
 * (a loopback site also accepts the other loopback names, which only this machine can use), and
 * an Origin, when a browser sends one, must be the site's origin or one configured in
 * `mcp.allowedOrigins`. A loopback site gets no wider Origin: any page served from this machine,
 * on any port, would otherwise drive the service from the browser of whoever runs it.
 * Answers the reason for a refusal, or undefined.
 */
export function requestOriginCheck(
  siteUrl: string,
  trustProxy: boolean,
  extraOrigins: readonly string[] = [],
): (request: Request) => string | undefined {
  const site = new URL(siteUrl);
  const origins = new Set([site.origin, ...extraOrigins.map((origin) => new URL(origin).origin)]);
  const siteHost = site.hostname.toLowerCase();
  const loopbackSite = LOOPBACK.has(siteHost);
  const allowedHost = (hostname: string | undefined) =>
    hostname !== undefined && (hostname === siteHost || (loopbackSite && LOOPBACK.has(hostname)));

  return (request) => {
    const { headers } = request;
    const forwarded = trustProxy ? headers.get('x-forwarded-host')?.split(',').pop()?.trim() : undefined;
    // Node's adapter builds the URL from the Host header; in-process requests carry no Host at all.
    const host = forwarded || headers.get('host') || new URL(request.url).host;
    if (!host || !allowedHost(hostnameOf(host, 'http://'))) return 'Host header not allowed.';
    const origin = headers.get('origin');
    if (origin === null) return undefined;
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      return 'Origin header not allowed.';
    }
    return origins.has(parsed.origin) ? undefined : 'Origin header not allowed.';
  };
}
