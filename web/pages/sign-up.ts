import type { Context } from 'hono';
import { showAccountForm, submitAccountForm } from '../account-form.ts';
import type { Web } from '../context.ts';

/** `GET /signup`: a new account from an email and a password, `next` kept through the form. */
export const signUpPage = (c: Context, web: Web): Promise<Response> => showAccountForm(c, web, 'signup');

/** `POST /signup`: signed in at once on success; any refusal gets one generic message. */
export const signUpSubmit = (c: Context, web: Web): Promise<Response> =>
  submitAccountForm(c, web, 'signup', (input) => web.core.signUp(input));
