import { describe, expect, it } from 'vitest';
import { servicePerTest } from './helpers/service.ts';

/**
 * Sign-in throttling (docs/operations.md, "Sign-in throttling"), with the default site limits:
 * 30 attempts per address, 5 failures per email from one address and 10 per email, each per hour.
 */
const service = servicePerTest();

const PASSWORD = 'correct horse battery';
const WRONG = 'not the password';
const HOUR_MS = 3_600_000;
const DANA = 'dana@example.com';

const signIn = async (email: string, password: string, clientAddress: string): Promise<string> => {
  const result = await service.core.signIn({ email, password, clientAddress });
  return result.ok ? 'ok' : result.error.code;
};

/** Ten wrong passwords for the email, each from its own address: the email's failure bucket is full. */
async function fillEmailFailures(email = DANA): Promise<void> {
  for (let i = 0; i < 10; i++) expect(await signIn(email, WRONG, `198.51.100.${i}`)).toBe('INVALID_REQUEST');
}

async function signUpDana(): Promise<void> {
  const up = await service.core.signUp({ email: DANA, password: PASSWORD, clientAddress: '192.0.2.1' });
  expect(up.ok).toBe(true);
}

describe('sign-in throttling', () => {
  it('wrong passwords from elsewhere do not lock the person out: a right one from an address that has not failed signs in', async () => {
    await signUpDana();
    await fillEmailFailures();
    expect(await signIn(DANA, WRONG, '198.51.100.77')).toBe('INVALID_REQUEST');
    expect(await signIn(DANA, PASSWORD, '203.0.113.7')).toBe('ok');
  });

  it('while the email is under attack, a fresh address gets one password check: its wrong password is counted and its next attempt refused', async () => {
    await signUpDana();
    await fillEmailFailures();
    expect(await signIn(DANA, WRONG, '203.0.113.9')).toBe('INVALID_REQUEST');
    const refused = await service.core.signIn({ email: DANA, password: PASSWORD, clientAddress: '203.0.113.9' });
    expect(refused.ok ? 'ok' : [refused.error.code, refused.error.retryAfterSec]).toEqual(['RATE_LIMITED', 3600]);
    // An address that failed before the bucket filled is refused too, right password or not.
    expect(await signIn(DANA, PASSWORD, '198.51.100.0')).toBe('RATE_LIMITED');
  });

  it('concurrent guesses from one fresh address while the email is under attack get one password check between them', async () => {
    await signUpDana();
    await fillEmailFailures();
    const answers = await Promise.all(Array.from({ length: 5 }, () => signIn(DANA, WRONG, '203.0.113.20')));
    expect(answers.sort()).toEqual(['INVALID_REQUEST', 'RATE_LIMITED', 'RATE_LIMITED', 'RATE_LIMITED', 'RATE_LIMITED']);
  });

  it('one address gets five failures per email per hour, then 429 even with the right password; other emails and the next hour are unaffected', async () => {
    await signUpDana();
    await service.core.signUp({ email: 'noa@example.com', password: PASSWORD, clientAddress: '192.0.2.1' });
    const address = '203.0.113.30';
    for (let i = 0; i < 5; i++) expect(await signIn(DANA, WRONG, address)).toBe('INVALID_REQUEST');
    expect(await signIn(DANA, PASSWORD, address)).toBe('RATE_LIMITED');
    expect(await signIn('noa@example.com', PASSWORD, address)).toBe('ok');
    expect(await signIn(DANA, PASSWORD, '203.0.113.31')).toBe('ok');
    service.clock.advance(HOUR_MS + 1);
    expect(await signIn(DANA, PASSWORD, address)).toBe('ok');
  });

  it('failures from one IPv6 /64 count as one address’s, whichever addresses in it they came from', async () => {
    await signUpDana();
    for (let i = 1; i <= 5; i++) expect(await signIn(DANA, WRONG, `2001:db8:1:2::${i}`)).toBe('INVALID_REQUEST');
    expect(await signIn(DANA, PASSWORD, '2001:db8:1:2:a9f1::7')).toBe('RATE_LIMITED');
    expect(await signIn(DANA, PASSWORD, '2001:db8:1:3::1')).toBe('ok');
  });

  it('a right password is not a failure: sign-ins that succeed never fill the failure buckets', async () => {
    await signUpDana();
    const address = '203.0.113.40';
    for (let i = 0; i < 12; i++) expect(await signIn(DANA, PASSWORD, address)).toBe('ok');
    for (let i = 0; i < 5; i++) expect(await signIn(DANA, WRONG, address)).toBe('INVALID_REQUEST');
    expect(await signIn(DANA, WRONG, address)).toBe('RATE_LIMITED');
  });

  it('every attempt from one address counts against its 30 per hour, whatever the email', async () => {
    const address = '203.0.113.50';
    for (let i = 0; i < 30; i++) expect(await signIn(`person${i}@example.com`, WRONG, address)).toBe('INVALID_REQUEST');
    expect(await signIn('one-more@example.com', WRONG, address)).toBe('RATE_LIMITED');
    expect(await signIn('one-more@example.com', WRONG, '203.0.113.51')).toBe('INVALID_REQUEST');
  });

  it('signing up again and again with someone’s email does not lock them out', async () => {
    await signUpDana();
    for (let i = 0; i < 12; i++) {
      const again = await service.core.signUp({ email: DANA, password: WRONG, clientAddress: `198.51.100.${i}` });
      expect(again.ok ? 'ok' : again.error.code).toBe('INVALID_REQUEST');
    }
    expect(await signIn(DANA, PASSWORD, '198.51.100.1')).toBe('ok');
  });

  it('an unknown email is throttled exactly like a known one, so the answers say nothing about accounts', async () => {
    await signUpDana();
    const sequence = async (email: string, net: string): Promise<string[]> => {
      const answers: string[] = [];
      for (let i = 0; i < 10; i++) answers.push(await signIn(email, WRONG, `${net}.${i}`));
      answers.push(await signIn(email, WRONG, `${net}.0`), await signIn(email, WRONG, `${net}.200`));
      for (let i = 0; i < 6; i++) answers.push(await signIn(email, WRONG, `${net}.100`));
      return answers;
    };
    const known = await sequence(DANA, '198.51.100');
    expect(await sequence('nobody@example.com', '203.0.113')).toEqual(known);
    expect(known.slice(10, 12)).toEqual(['RATE_LIMITED', 'INVALID_REQUEST']);
  });

  it('the buckets store keyed hashes, never an email or an address', async () => {
    await signUpDana();
    await signIn(DANA, WRONG, '203.0.113.60');
    await signIn(DANA, PASSWORD, '203.0.113.61');
    const { rows } = await service.db.orm.$client.execute('SELECT bucket FROM rate_hits');
    expect(rows.length).toBeGreaterThan(0);
    const stored = JSON.stringify(rows);
    for (const value of [DANA, 'dana', '203.0.113.60', '203.0.113.61', '192.0.2.1'])
      expect(stored).not.toContain(value);
  });
});
