import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Core } from '../core/index.ts';
import type { Web, WebOptions } from './context.ts';
import { approvalRoute } from './pages/approval.ts';
import { approvalChangesRoute } from './pages/approval-changes.ts';
import { approvalDeclineSubmit } from './pages/approval-decline.ts';
import { approveConfirmRoute } from './pages/approve-confirm.ts';
import { designCutouts, designPage } from './pages/design.ts';
import { homeRoute } from './pages/home.ts';
import { approvalPictureRoute, designPictureRoute } from './piece-pictures.ts';
import { notFoundPage } from './pages/not-found.ts';
import { tooLargePage } from './pages/refused.ts';
import { serverErrorPage } from './pages/server-error.ts';
import { signInPage, signInSubmit } from './pages/sign-in.ts';
import { signOutSubmit } from './pages/sign-out.ts';
import { signUpPage, signUpSubmit } from './pages/sign-up.ts';

/**
 * Sign-in forms are a few hundred bytes, a decline with its reason a few kilobytes; anything much
 * larger is not one of ours.
 */
const FORM_LIMIT_BYTES = 16 * 1024;

/**
 * The people's pages: home, the approval page, sign-in / sign-up / sign-out and the person's
 * designs. Anything not matched falls through to the site's 404 page (`notFoundPage`).
 */
export function registerWebRoutes(app: Hono, core: Core, options: WebOptions): void {
  const web: Web = { core, ...options };
  const form = bodyLimit({ maxSize: FORM_LIMIT_BYTES, onError: () => tooLargePage() });

  app.get('/', (c) => homeRoute(c, web));
  app.get('/a/:token', (c) => approvalRoute(c, web));
  app.get('/a/:token/changes.png', (c) => approvalChangesRoute(c, web));
  app.post('/a/:token/decline', form, (c) => approvalDeclineSubmit(c, web));
  app.get('/a/:token/approve', (c) => approveConfirmRoute(c, web));
  app.get('/a/:token/flat.png', (c) => approvalPictureRoute(c, web, 'flat'));
  app.get('/a/:token/worn.png', (c) => approvalPictureRoute(c, web, 'worn'));
  app.get('/signin', (c) => signInPage(c, web));
  app.post('/signin', form, (c) => signInSubmit(c, web));
  app.get('/signup', (c) => signUpPage(c, web));
  app.post('/signup', form, (c) => signUpSubmit(c, web));
  app.post('/signout', form, (c) => signOutSubmit(c, web));
  app.get('/designs/:designId', (c) => designPage(c, web));
  app.get('/designs/:designId/cutouts.svg', (c) => designCutouts(c, web));
  app.get('/designs/:designId/flat.png', (c) => designPictureRoute(c, web, 'flat'));
  app.get('/designs/:designId/worn.png', (c) => designPictureRoute(c, web, 'worn'));
}

export type { WebOptions };
export { notFoundPage, serverErrorPage };
