import { describe, expect, it } from 'vitest';
import { he } from '../../web/strings.ts';
import { servicePerTest, SITE } from '../helpers/service.ts';

const FORM = 'application/x-www-form-urlencoded';
const PASSWORD = 'correct horse battery';

const service = servicePerTest();

const postForm = (path: string, fields: Record<string, string>, headers: Record<string, string> = { origin: SITE }) =>
  service.fetch(path, {
    method: 'POST',
    headers: { 'content-type': FORM, ...headers },
    body: new URLSearchParams(fields).toString(),
  });

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
