import { describe, expect, it } from 'vitest';
import { he } from '../../web/strings.ts';
import { jsonInit, roomyRateLimits } from '../helpers/flows.ts';
import { expectNoInjectedMarkup, expectPageHeaders, HOSTILE } from '../helpers/page-checks.ts';
import { removeDir, servicePerTest, startService } from '../helpers/service.ts';
import { PASSWORD, sessionFrom, siteClient } from '../helpers/site.ts';

const FORM = 'application/x-www-form-urlencoded';
const service = servicePerTest({ config: { limits: roomyRateLimits } });
const { get, postForm, signUp, readyJob } = siteClient(service);

describe('sign-up, sign-in, sign-out and the session cookie through the pages', () => {
  it('the session cookie is HttpOnly, SameSite=Lax, site-wide, 30 days, not Secure on http', async () => {
    const response = await postForm('/signup', { email: 'person@example.com', password: PASSWORD });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/');
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^jds=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('; HttpOnly');
    expect(cookie).toContain('; SameSite=Lax');
    expect(cookie).toContain('; Path=/');
    expect(cookie).toContain(`; Max-Age=${30 * 24 * 3600}`);
    expect(cookie).not.toContain('Secure');
  });

  it('sign-in sets a new session and sign-out ends it and clears the cookie', async () => {
    const first = await signUp();
    const signedIn = await postForm('/signin', { email: 'person@example.com', password: PASSWORD }, first);
    expect(signedIn.status).toBe(303);
    const second = sessionFrom(signedIn);
    expect(second).not.toBe(first);
    expect(await service.core.sessionAccount(first)).toEqual({ ok: true, value: undefined });

    const signedInPage = await get('/signin', second);
    expect(await signedInPage.text()).toContain(he.signIn.alreadySignedIn);

    const out = await postForm('/signout', {}, second);
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/');
    const cleared = out.headers.get('set-cookie')!;
    expect(cleared).toMatch(/^jds=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(await service.core.sessionAccount(second)).toEqual({ ok: true, value: undefined });
    const home = await (await get('/', second)).text();
    expect(home).toContain('href="/signin"');
  });

  it('a wrong password re-renders the form with one generic Hebrew message and status 400', async () => {
    await signUp();
    for (const fields of [
      { email: 'person@example.com', password: 'wrong password!' },
      { email: 'nobody@example.com', password: PASSWORD },
      { email: '', password: '' },
    ]) {
      const response = await postForm('/signin', { ...fields, next: '/a/abc' });
      expect(response.status).toBe(400);
      expect(response.headers.get('set-cookie')).toBeNull();
      expectPageHeaders(response, 'same-origin');
      const html = await response.text();
      expect(html).toContain(he.signIn.failed);
      expect(html).toContain('<input type="hidden" name="next" value="/a/abc">');
      expect(html).not.toContain(fields.password || 'never');
    }
  });

  it('a refused sign-up says so in Hebrew and echoes the address escaped', async () => {
    const short = await postForm('/signup', { email: `${HOSTILE}@example.com`, password: 'short' });
    expect(short.status).toBe(400);
    const html = await short.text();
    expect(html).toContain(he.signUp.failed('8'));
    expect(html).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt;@example.com"');
    expectNoInjectedMarkup(html);

    await signUp('taken@example.com');
    const taken = await postForm('/signup', { email: 'taken@example.com', password: PASSWORD });
    expect(taken.status).toBe(400);
    expect(await taken.text()).toContain(he.signUp.failed('8'));
  });

  it('an email full of markup is escaped in the header of every page', async () => {
    const session = await signUp(`${HOSTILE}@example.com`);
    const job = await readyJob();
    for (const path of ['/', `/a/${job.token}`, '/signin', '/signup']) {
      const html = await (await get(path, session)).text();
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;@example.com');
      expectNoInjectedMarkup(html);
    }
  });

  it('throttled sign-ins answer 429 with a Hebrew message and Retry-After', async () => {
    const tight = await startService({ config: { limits: roomyRateLimits, site: { signInPerHourPerAddress: 2 } } });
    try {
      const attempt = () =>
        tight.fetch('/signin', {
          method: 'POST',
          headers: { 'content-type': FORM },
          body: new URLSearchParams({ email: 'a@example.com', password: 'whatever1' }).toString(),
        });
      expect((await attempt()).status).toBe(400);
      expect((await attempt()).status).toBe(400);
      const throttled = await attempt();
      expect(throttled.status).toBe(429);
      expect(throttled.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await throttled.text()).toContain(he.signIn.throttled);
    } finally {
      await tight.close();
      removeDir(tight.dir);
    }
  });

  it.each(['//evil.example/', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)'])(
    'next=%s is refused as a redirect target',
    async (next) => {
      const page = await (await get(`/signin?next=${encodeURIComponent(next)}`)).text();
      expect(page).not.toContain('name="next"');
      expect(page).not.toContain('evil.example');
      await signUp();
      const response = await postForm('/signin', { email: 'person@example.com', password: PASSWORD, next });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/');
    },
  );

  it('forms posted from another site are refused', async () => {
    await signUp();
    const fields = { email: 'person@example.com', password: PASSWORD };
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }]) {
      const response = await postForm('/signin', fields, undefined, headers);
      expect(response.status).toBe(403);
      expect(response.headers.get('set-cookie')).toBeNull();
      expect(await response.text()).toContain(he.crossSite.title);
    }
    const sameOrigin = await postForm('/signin', fields, undefined, {
      'sec-fetch-site': 'same-origin',
      origin: 'null',
    });
    expect(sameOrigin.status).toBe(303);
  });

  it('the session cookie is Secure when the site is https', async () => {
    const secure = await startService({ config: { limits: roomyRateLimits }, siteUrl: 'https://jewellery.example' });
    try {
      const response = await secure.fetch('/signup', {
        method: 'POST',
        headers: { 'content-type': FORM, origin: 'https://jewellery.example' },
        body: new URLSearchParams({ email: 'person@example.com', password: PASSWORD }).toString(),
      });
      expect(response.status).toBe(303);
      expect(response.headers.get('set-cookie')).toMatch(/; Secure$/);
      const out = await secure.fetch('/signout', { method: 'POST', headers: { cookie: 'jds=x' } });
      expect(out.headers.get('set-cookie')).toMatch(/; Secure$/);
    } finally {
      await secure.close();
      removeDir(secure.dir);
    }
  });

  it('an oversized form is refused with 413', async () => {
    const response = await postForm('/signin', { email: 'a@example.com', password: 'x'.repeat(20_000) });
    expect(response.status).toBe(413);
  });

  it('jsonInit is not a form: posting JSON to /signin re-renders the form', async () => {
    const response = await service.fetch('/signin', jsonInit({ email: 'a@example.com', password: PASSWORD }));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(he.signIn.failed);
  });
});
