import type { Context } from 'hono';
import { showAccountForm, submitAccountForm } from '../account-form.ts';
import type { Web } from '../context.ts';

/** `GET /signin`: email and password, `next` kept through the form. */
export const signInPage = (c: Context, web: Web): Promise<Response> => showAccountForm(c, web, 'signin');

/** `POST /signin`: a wrong email or password gets one generic message; throttled attempts 429. */
export const signInSubmit = (c: Context, web: Web): Promise<Response> =>
  submitAccountForm(c, web, 'signin', (input) => web.core.signIn(input));
