import type { Context } from 'hono';
import type { Web } from '../context.ts';
import { escapeHtml, htmlResponse, page, type Viewer } from '../html.ts';
import { readSession } from '../session.ts';
import { he } from '../strings.ts';
import { unavailablePage } from './unavailable.ts';

export const renderHomePage = (viewer: Viewer): string =>
  page({
    title: he.home.title,
    viewer,
    body: `<h1>${escapeHtml(he.home.title)}</h1>
<p class="lead">${escapeHtml(he.home.intro)}</p>`,
  });

export const homePage = (viewer: Viewer): Response => htmlResponse(renderHomePage(viewer));

/** `GET /`: the home page, with the account links for whoever is looking. */
export async function homeRoute(c: Context, web: Web): Promise<Response> {
  const session = await readSession(c, web.core);
  return session.ok ? homePage(session.value) : unavailablePage();
}
