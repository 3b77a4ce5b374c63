import { PAGE_HEADERS, page } from '../html.ts';

/** The site's own 404 page: unknown pages, the switched-off API, dead approval links. */
export function notFoundPage(): Response {
  const html = page(
    'הדף לא נמצא',
    `<h1>הדף לא נמצא</h1>
<p>הדף שחיפשתם אינו קיים, או שהקישור כבר אינו בתוקף.</p>
<p><a href="/">לדף הבית</a></p>`,
  );
  return new Response(html, { status: 404, headers: { ...PAGE_HEADERS, 'cache-control': 'no-store' } });
}
