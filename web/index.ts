import type { Hono } from 'hono';
import { homePage } from './pages/home.ts';
import { notFoundPage } from './pages/not-found.ts';

/** The people's pages. Anything not matched falls through to the site's 404 page. */
export function registerWebRoutes(app: Hono): void {
  app.get('/', () => homePage());
}

export { notFoundPage };
