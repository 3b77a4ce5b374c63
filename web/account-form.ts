import type { Context } from 'hono';
import { type CoreError, COMMON_PASSWORD_REFUSAL, type SignedIn, type Result } from '../core/index.ts';
import type { Web } from './context.ts';
import { escapeHtml, htmlResponse, page, SAME_ORIGIN_REFERRER, seeOther, withNext, type Viewer } from './html.ts';
import { crossSitePage } from './pages/refused.ts';
import { isConfirmPath } from './paths.ts';
import { unavailablePage } from './pages/unavailable.ts';
import { formFields, isCrossSite, safeNext } from './request.ts';
import { readSession, sessionCookie, sessionToken } from './session.ts';
import { he } from './strings.ts';

interface AccountFormInput {
  kind: 'signin' | 'signup';
  viewer: Viewer;
  /** Where to go after success; already checked with `safeNext`. */
  next?: string | undefined;
  /** The address typed last time, shown again after a refusal (the password never is). */
  email?: string | undefined;
  /** A refusal to show above the form. */
  error?: string | undefined;
  minPasswordLength: number;
}

/** The sign-in and sign-up pages: the same form, posted to itself, with `next` carried along. */
function renderAccountForm(input: AccountFormInput): string {
  const signUp = input.kind === 'signup';
  const text = signUp ? he.signUp : he.signIn;
  const action = signUp ? '/signup' : '/signin';

  if (input.viewer) {
    return page({
      title: text.title,
      viewer: input.viewer,
      body: `<h1>${escapeHtml(text.title)}</h1>
<div class="notice success"><p>${escapeHtml(he.signIn.alreadySignedIn)} <bdi>${escapeHtml(input.viewer.email)}</bdi>.</p></div>
<p><a class="btn btn-primary" href="${escapeHtml(input.next ?? '/')}">${escapeHtml(he.signIn.continue)}</a></p>`,
    });
  }

  const invalid = input.error ? ' aria-invalid="true" aria-describedby="form-error"' : '';
  const min = String(input.minPasswordLength);
  const passwordHint = signUp
    ? `<p class="hint" id="password-hint">${escapeHtml(he.signUp.passwordHint(min))}</p>`
    : '';
  const describedBy = [input.error ? 'form-error' : '', signUp ? 'password-hint' : ''].filter(Boolean).join(' ');
  const passwordAttrs = [
    `autocomplete="${signUp ? 'new-password' : 'current-password'}"`,
    signUp ? `minlength="${escapeHtml(min)}"` : '',
    input.error ? 'aria-invalid="true"' : '',
    describedBy ? `aria-describedby="${describedBy}"` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const switchLink = signUp
    ? `${escapeHtml(he.signUp.haveAccount)} <a href="${escapeHtml(withNext('/signin', input.next))}">${escapeHtml(he.signUp.toSignIn)}</a>`
    : `${escapeHtml(he.signIn.noAccount)} <a href="${escapeHtml(withNext('/signup', input.next))}">${escapeHtml(he.signIn.toSignUp)}</a>`;

  return page({
    title: text.title,
    viewer: input.viewer,
    // The header's sign-in and sign-up links keep the same destination.
    here: input.next,
    noindex: Boolean(input.next),
    body: `<h1>${escapeHtml(text.title)}</h1>
${isConfirmPath(input.next) ? `<div class="notice"><p>${escapeHtml(he.accountFor.approval)}</p></div>` : ''}
${input.error ? `<div class="notice error" id="form-error" role="alert"><p>${escapeHtml(input.error)}</p></div>` : ''}
<form class="form" method="post" action="${escapeHtml(action)}">
${input.next ? `<input type="hidden" name="next" value="${escapeHtml(input.next)}">` : ''}
<div class="field">
<label for="email">${escapeHtml(he.form.email)}</label>
<input id="email" name="email" type="email" dir="ltr" autocomplete="email" required maxlength="254" value="${escapeHtml(input.email ?? '')}"${invalid}>
</div>
<div class="field">
<label for="password">${escapeHtml(he.form.password)}</label>
<input id="password" name="password" type="password" dir="ltr" required ${passwordAttrs}>
${passwordHint}
</div>
<div><button type="submit" class="btn btn-primary">${escapeHtml(text.submit)}</button></div>
</form>
<p class="switch">${switchLink}</p>`,
  });
}

/** The Hebrew words for a refusal: throttled, a common password, or the one generic message. */
function refusalText(kind: AccountFormInput['kind'], error: CoreError, min: string): string {
  if (error.code === 'RATE_LIMITED') return kind === 'signup' ? he.signUp.throttled : he.signIn.throttled;
  if (kind === 'signin') return he.signIn.failed;
  return error.message === COMMON_PASSWORD_REFUSAL ? he.signUp.commonPassword : he.signUp.failed(min);
}

type AccountCall = (input: { email: string; password: string; clientAddress: string }) => Promise<Result<SignedIn>>;

/** GET of the sign-in or sign-up page: the form, or a "continue" link for someone already signed in. */
export async function showAccountForm(c: Context, web: Web, kind: AccountFormInput['kind']): Promise<Response> {
  const session = await readSession(c, web.core);
  if (!session.ok) return unavailablePage();
  const html = renderAccountForm({
    kind,
    viewer: session.value,
    next: safeNext(c.req.query('next')),
    minPasswordLength: web.core.config.site.minPasswordLength,
  });
  return htmlResponse(html, 200, SAME_ORIGIN_REFERRER);
}

/**
 * POST of the sign-in or sign-up form: on success a new session cookie (an earlier session on
 * this browser is ended) and 303 to `next`; otherwise the form again with a generic message (or
 * why a sign-up's password will not do), 400 (429 when throttled, 503 when the account store cannot answer).
 */
export async function submitAccountForm(
  c: Context,
  web: Web,
  kind: AccountFormInput['kind'],
  call: AccountCall,
): Promise<Response> {
  const { core } = web;
  if (isCrossSite(c, core.urls.siteUrl, 'foreign')) return crossSitePage();
  const fields = await formFields(c);
  const next = safeNext(fields.next);
  const email = fields.email ?? '';
  const result = await call({ email, password: fields.password ?? '', clientAddress: web.clientAddress(c) });
  if (result.ok) {
    const previous = sessionToken(c);
    if (previous && previous !== result.value.sessionToken) await core.signOut(previous);
    return seeOther(next ?? '/', { 'set-cookie': sessionCookie(core, result.value.sessionToken) });
  }
  const { code } = result.error;
  if (code === 'AUTH_UNAVAILABLE') return unavailablePage();
  const min = core.config.site.minPasswordLength;
  const throttled = code === 'RATE_LIMITED';
  const error = refusalText(kind, result.error, String(min));
  const html = renderAccountForm({ kind, viewer: undefined, next, email, error, minPasswordLength: min });
  const retry: Record<string, string> =
    throttled && result.error.retryAfterSec !== undefined ? { 'retry-after': String(result.error.retryAfterSec) } : {};
  return htmlResponse(html, throttled ? 429 : 400, { ...SAME_ORIGIN_REFERRER, ...retry });
}
