import { describe, expect, it } from 'vitest';
import { he } from '../../web/strings.ts';
import { servicePerTest, SITE } from '../helpers/service.ts';

const FORM = 'application/x-www-form-urlencoded';
const PASSWORD = 'correct horse battery';

const service = servicePerTest();

const postForm = (
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = { origin: SITE },
  address?: string,
) =>
  service.fetch(
    path,
    { method: 'POST', headers: { 'content-type': FORM, ...headers }, body: new URLSearchParams(fields).toString() },
    address,
  );

describe('next on the account forms', () => {
  it('a sign-up whose next is not ASCII (/%E3%80%82x) goes home with its session, never a 500', async () => {
    const response = await postForm('/signup', { email: 'person@example.com', password: PASSWORD, next: '/。x' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/');
    const cookie = /^jds=([^;]+);/.exec(response.headers.get('set-cookie') ?? '');
    expect(cookie).not.toBeNull();
    const session = await service.core.sessionAccount(decodeURIComponent(cookie![1]!));
    expect(session.ok && session.value?.email).toBe('person@example.com');
    expect((await postForm('/signin', { email: 'person@example.com', password: PASSWORD })).status).toBe(303);
  });

  it('GET /signin?next= with a non-ASCII path shows the form without carrying it', async () => {
    const response = await service.fetch('/signin?next=%2F%E3%80%82x');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(he.signIn.title);
    expect(html).not.toContain('name="next"');
    expect(html).not.toContain('。');
  });
});

describe('sign-up passwords', () => {
  it('a common password is refused with a Hebrew reason, and nothing is created', async () => {
    for (const password of ['12345678', 'password', 'Password']) {
      const response = await postForm('/signup', { email: 'person@example.com', password });
      expect(response.status, password).toBe(400);
      expect(response.headers.get('set-cookie')).toBeNull();
      const html = await response.text();
      expect(html).toContain(he.signUp.commonPassword);
      expect(html).not.toContain(he.signUp.failed('8'));
    }
    const { rows } = await service.db.orm.$client.execute('SELECT count(*) AS n FROM accounts');
    expect(Number(rows[0]!.n)).toBe(0);
  });

  it('the sign-up page says before the first try that a common password will not do', async () => {
    const html = await (await service.fetch('/signup')).text();
    expect(html).toContain(he.signUp.passwordHint('8'));
    expect(he.signUp.passwordHint('8')).toContain('נפוצה');
  });
});

describe('sign-in throttling through the form', () => {
  it('wrong passwords for someone’s email from other addresses leave their own sign-in working', async () => {
    const fields = { email: 'person@example.com', password: PASSWORD };
    await service.core.signUp({ ...fields, clientAddress: '192.0.2.1' });
    for (let i = 0; i < 12; i++) {
      const wrong = await postForm(
        '/signin',
        { ...fields, password: 'not the password' },
        undefined,
        `198.51.100.${i}`,
      );
      expect(wrong.status).toBe(400);
    }
    const own = await postForm('/signin', fields, undefined, '203.0.113.5');
    expect(own.status).toBe(303);
    expect(own.headers.get('set-cookie')).toMatch(/^jds=/);
  });
});

describe('where the account forms may be posted from', () => {
  const fields = { email: 'person@example.com', password: PASSWORD };

  it.each(['/signin', '/signup'])(
    'POST %s with Origin: null and no Sec-Fetch-Site is refused with the cross-site page',
    async (path) => {
      await service.core.signUp({ ...fields, clientAddress: '192.0.2.1' });
      const response = await postForm(path, { ...fields, email: 'other@example.com' }, { origin: 'null' });
      expect(response.status).toBe(403);
      expect(response.headers.get('set-cookie')).toBeNull();
      expect(await response.text()).toContain(he.crossSite.title);
      const signIn = await postForm('/signin', fields, { origin: 'null' });
      expect(signIn.status).toBe(403);
      const { rows } = await service.db.orm.$client.execute('SELECT count(*) AS n FROM sessions');
      expect(Number(rows[0]!.n)).toBe(1);
    },
  );

  it('Origin: null passes when Sec-Fetch-Site says same-origin', async () => {
    const response = await postForm('/signup', fields, { origin: 'null', 'sec-fetch-site': 'same-origin' });
    expect(response.status).toBe(303);
    expect(response.headers.get('set-cookie')).toMatch(/^jds=/);
  });

  it('the sign-in and sign-up pages send Referrer-Policy: same-origin, so their own posts carry the site’s Origin', async () => {
    for (const path of ['/signin', '/signup', '/signin?next=%2Fa%2Fabc']) {
      const response = await service.fetch(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('referrer-policy'), path).toBe('same-origin');
    }
    const refused = await postForm('/signin', { ...fields, password: 'not the password' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('referrer-policy')).toBe('same-origin');
    // Every other page keeps sending no referrer at all.
    expect((await service.fetch('/')).headers.get('referrer-policy')).toBe('no-referrer');
  });
});
