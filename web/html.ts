/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** Every page: Hebrew, right-to-left, no scripts, a strict Content-Security-Policy. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="he" dir="rtl">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,"Segoe UI",Arial,sans-serif;margin:0;background:#faf8f5;color:#1d1d1f;line-height:1.6}
main{max-width:40rem;margin:0 auto;padding:3rem 1.25rem}
h1{font-size:1.75rem;margin:0 0 1rem}
a{color:#7a4b00}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}
