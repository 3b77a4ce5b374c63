import { errorText } from '../logger.ts';
import { and, eq, gt } from 'drizzle-orm';
import { accounts, sessions } from '../../db/schema.ts';
import { DAY } from '../clock.ts';
import type { CoreDeps } from '../deps.ts';
import { coreError, invalidRequest } from '../errors.ts';
import { sha256Hex } from '../jobs/secrets.ts';
import { err, ok, type Result } from '../result.ts';
import { isCommonPassword } from './common-passwords.ts';
import { DECOY_PASSWORD_HASH, hashPassword, verifyPassword } from './passwords.ts';
import type { SessionAccount, SignedIn } from './types.ts';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,}$/;
/** The same words for a wrong email and a wrong password: no answer reveals an account. */
const WRONG_CREDENTIALS = 'Email or password is incorrect.';
/** Sign-up's refusal of a listed password; the site's page explains it in its own words. */
export const COMMON_PASSWORD_REFUSAL =
  'This password is on a list of common and leaked passwords, or repeats the same characters or runs through them in order, so it is easy to guess. Choose another.';

export interface Credentials {
  email: string;
  password: string;
  clientAddress: string;
}

const normalise = (email: string): string => email.trim().toLowerCase();

export async function signUp(deps: CoreDeps, input: Credentials): Promise<Result<SignedIn>> {
  const email = normalise(input.email);
  if (!EMAIL.test(email)) return err(invalidRequest('Enter a valid email address.'));
  const { minPasswordLength } = deps.config.site;
  if (input.password.length < minPasswordLength || input.password.length > 1024) {
    return err(invalidRequest(`The password must be at least ${minPasswordLength} characters long.`));
  }
  if (await isCommonPassword(input.password)) return err(invalidRequest(COMMON_PASSWORD_REFUSAL));
  const limited = await deps.limiter.signUp(input.clientAddress);
  if (!limited.ok) return limited;
  const id = deps.random.uuid();
  const passwordHash = await hashPassword(input.password, deps.random);
  const created = await deps.db.write(async (tx) => {
    const result = await tx
      .insert(accounts)
      .values({ id, email, passwordHash, createdAt: deps.clock.now() })
      .onConflictDoNothing({ target: accounts.email });
    return result.rowsAffected === 1;
  });
  // An existing address gets the same answer as any other refusal, so sign-up reveals no account.
  if (!created) return err(invalidRequest('This account could not be created. Try signing in instead.'));
  return ok({ accountId: id, email, sessionToken: await startSession(deps, id) });
}

export async function signIn(deps: CoreDeps, input: Credentials): Promise<Result<SignedIn>> {
  const email = normalise(input.email);
  const attempt = await deps.limiter.signIn(input.clientAddress, email);
  if (!attempt.ok) return attempt;
  const [account] = await deps.db.orm.select().from(accounts).where(eq(accounts.email, email));
  // An unknown email is checked against a decoy hash and counted as failed like a wrong password,
  // so neither the time taken nor the throttling says whether the account exists.
  const matches = await verifyPassword(input.password, account?.passwordHash ?? DECOY_PASSWORD_HASH);
  if (!account || !matches) return err(invalidRequest(WRONG_CREDENTIALS));
  await attempt.value.passed();
  return ok({ accountId: account.id, email, sessionToken: await startSession(deps, account.id) });
}

async function startSession(deps: CoreDeps, accountId: string): Promise<string> {
  const token = Buffer.from(deps.random.bytes(32)).toString('base64url');
  const now = deps.clock.now();
  await deps.db.write((tx) =>
    tx.insert(sessions).values({
      tokenHash: sha256Hex(token),
      accountId,
      createdAt: now,
      expiresAt: now + deps.config.site.sessionTtlDays * DAY,
    }),
  );
  return token;
}

/** The signed-in account, none, or AUTH_UNAVAILABLE when the session store cannot answer. */
export async function sessionAccount(
  deps: CoreDeps,
  token: string | undefined,
): Promise<Result<SessionAccount | undefined>> {
  if (!token || token.length > 200) return ok(undefined);
  try {
    const [row] = await deps.db.orm
      .select({ accountId: accounts.id, email: accounts.email })
      .from(sessions)
      .innerJoin(accounts, eq(accounts.id, sessions.accountId))
      .where(and(eq(sessions.tokenHash, sha256Hex(token)), gt(sessions.expiresAt, deps.clock.now())));
    return ok(row);
  } catch (cause) {
    deps.log.error({ msg: 'session store unreachable', err: errorText(cause) });
    return err(coreError('AUTH_UNAVAILABLE'));
  }
}

export async function signOut(deps: CoreDeps, token: string): Promise<void> {
  await deps.db.write((tx) => tx.delete(sessions).where(eq(sessions.tokenHash, sha256Hex(token))));
}
