import { PAGE_HEADERS, page } from '../html.ts';

export function homePage(): Response {
  const html = page(
    'תכשיטי פליז בחיתוך לייזר',
    `<h1>תכשיטי פליז בחיתוך לייזר</h1>
<p>צמידים וטבעות מפליז, בחיתוך לייזר לפי ציור. הסוכן שלכם שולח את הציור, ואתם מאשרים את העיצוב בקישור שתקבלו ממנו.</p>`,
  );
  return new Response(html, { status: 200, headers: PAGE_HEADERS });
}
