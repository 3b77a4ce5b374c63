import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORD_REFUSAL } from '../core/handoff/accounts.ts';
import { servicePerTest } from './helpers/service.ts';

const service = servicePerTest();

const PASSWORD = 'correct horse battery';
const creds = (email: string, password = PASSWORD, clientAddress = '192.0.2.1') => ({ email, password, clientAddress });

describe('accounts and sessions', () => {
  it('signs up, signs in with the same email in any case, and resolves the session', async () => {
    const up = await service.core.signUp(creds('Dana@Example.com'));
    expect(up.ok).toBe(true);
    const inAgain = await service.core.signIn(creds('  dana@example.COM '));
    if (!inAgain.ok) throw new Error(inAgain.error.message);
    const session = await service.core.sessionAccount(inAgain.value.sessionToken);
    expect(session).toEqual({ ok: true, value: { accountId: inAgain.value.accountId, email: 'dana@example.com' } });
  });

  it('stores the password only as an scrypt hash and the session only as a SHA-256 hash', async () => {
    const up = await service.core.signUp(creds('dana@example.com'));
    if (!up.ok) throw new Error(up.error.message);
    const { rows: accounts } = await service.db.orm.$client.execute('SELECT * FROM accounts');
    expect(JSON.stringify(accounts)).not.toContain(PASSWORD);
    expect(String(accounts[0]!.password_hash)).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    const { rows: sessions } = await service.db.orm.$client.execute('SELECT * FROM sessions');
    expect(JSON.stringify(sessions)).not.toContain(up.value.sessionToken);
    expect(sessions[0]!.token_hash).toBe(createHash('sha256').update(up.value.sessionToken).digest('hex'));
  });

  it('answers a wrong password and an unknown email with the same words', async () => {
    await service.core.signUp(creds('dana@example.com'));
    const wrong = await service.core.signIn(creds('dana@example.com', 'not the password'));
    const unknown = await service.core.signIn(creds('nobody@example.com'));
    expect(wrong.ok || unknown.ok).toBe(false);
    if (wrong.ok || unknown.ok) return;
    expect(wrong.error.message).toBe(unknown.error.message);
    expect([wrong.error.code, wrong.error.status]).toEqual(['INVALID_REQUEST', 400]);
  });

  it('refuses a second account for the same email without saying that it exists', async () => {
    await service.core.signUp(creds('dana@example.com'));
    const again = await service.core.signUp(creds('DANA@example.com', 'another password 1'));
    expect(again.ok).toBe(false);
    if (again.ok) return;
    expect(again.error.message).not.toMatch(/exist|taken|already registered/i);
  });

  it('refuses a malformed email and a short password', async () => {
    for (const [email, password] of [
      ['not-an-email', PASSWORD],
      ['dana@example.com', 'short'],
    ] as const) {
      const result = await service.core.signUp(creds(email, password));
      expect(result.ok ? 'ok' : result.error.code).toBe('INVALID_REQUEST');
    }
  });

  it('refuses a password from the common-password list whatever its case, width or surrounding spaces', async () => {
    for (const password of ['12345678', 'password', 'PassWord1', ' iloveyou ', 'ｐａｓｓｗｏｒｄ', 'trustno1']) {
      const result = await service.core.signUp(creds('dana@example.com', password));
      expect(result.ok ? 'ok' : [result.error.code, result.error.message], password).toEqual([
        'INVALID_REQUEST',
        COMMON_PASSWORD_REFUSAL,
      ]);
    }
    const { rows } = await service.db.orm.$client.execute('SELECT count(*) AS n FROM accounts');
    expect(Number(rows[0]!.n)).toBe(0);
    expect((await service.core.signUp(creds('dana@example.com'))).ok).toBe(true);
  });

  it('refuses repeats and runs as common passwords too, and takes passwords that only contain them', async () => {
    // Not on the list, but what a guesser tries next: one unit said over again, or a run of characters.
    const refused = ['qqqqqqqqqq', 'zxzxzxzxzx', '73917391', 'abcabcab', 'passwordpassword', 'ghijklmn', '98765432'];
    for (const password of refused) {
      const result = await service.core.signUp(creds('dana@example.com', password));
      expect(result.ok ? 'ok' : result.error.message, password).toBe(COMMON_PASSWORD_REFUSAL);
    }
    // A longer unit that is not on the list, and passwords with a repeat or a run inside them.
    for (const [n, password] of ['tulipwindow tulipwindow', 'qqqq harbour 17', 'abcdefgh-river'].entries()) {
      expect((await service.core.signUp(creds(`taken${n}@example.com`, password))).ok, password).toBe(true);
    }
  });

  it('ends a session on sign-out and after its lifetime', async () => {
    const up = await service.core.signUp(creds('dana@example.com'));
    if (!up.ok) throw new Error(up.error.message);
    const again = await service.core.signIn(creds('dana@example.com'));
    if (!again.ok) throw new Error(again.error.message);
    await service.core.signOut(up.value.sessionToken);
    expect(await service.core.sessionAccount(up.value.sessionToken)).toEqual({ ok: true, value: undefined });
    expect((await service.core.sessionAccount(again.value.sessionToken)).ok).toBe(true);
    service.clock.advance(30 * 24 * 3600 * 1000);
    expect(await service.core.sessionAccount(again.value.sessionToken)).toEqual({ ok: true, value: undefined });
  });

  it('answers AUTH_UNAVAILABLE when the session store cannot be read', async () => {
    await service.db.orm.$client.execute('DROP TABLE sessions');
    const result = await service.core.sessionAccount('some-token');
    expect(result.ok ? 'ok' : [result.error.code, result.error.status]).toEqual(['AUTH_UNAVAILABLE', 503]);
  });
});
