import { generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.ts';
import { systemClock } from '../../core/clock.ts';
import { cryptoRandomness } from '../../core/randomness.ts';
import type { RunSettings } from '../../env.ts';
import { buildService } from '../../service.ts';
import { braceletBody, jsonInit } from '../helpers/flows.ts';
import { ScriptedPipeline } from '../helpers/scripted-pipeline.ts';
import { startSqld, type Sqld } from '../helpers/sqld.ts';

/** A libSQL server that wants a token, reached the way a hosted one is: `libsql://` and DATABASE_AUTH_TOKEN. */
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const rawPublicKey = publicKey.export({ format: 'jwk' }).x!;
const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const unsigned = `${part({ alg: 'EdDSA', typ: 'JWT' })}.${part({ a: 'rw' })}`;
const token = `${unsigned}.${sign(null, Buffer.from(unsigned), privateKey).toString('base64url')}`;

let sqld: Sqld;
beforeAll(async () => {
  sqld = await startSqld({ jwtPublicKey: rawPublicKey });
});
afterAll(() => sqld?.stop());

const settings = (databaseAuthToken: string | undefined): RunSettings => ({
  port: 0,
  siteUrl: 'http://localhost:8787',
  // What a hosted libSQL URL looks like; `tls=0` because this server listens on plain loopback HTTP.
  databaseUrl: `${sqld.url.replace('http:', 'libsql:')}?tls=0`,
  databaseAuthToken,
  configFile: undefined,
  apiEnabled: true,
  trustProxy: false,
});
const start = (databaseAuthToken?: string) =>
  buildService(settings(databaseAuthToken), {
    clock: systemClock,
    random: cryptoRandomness,
    log: silentLogger,
    pipeline: new ScriptedPipeline().run,
  });

describe('a libSQL server that requires a token', () => {
  it('serves with DATABASE_AUTH_TOKEN: migrations applied, a job opened', async () => {
    const service = await start(token);
    try {
      const response = await service.app.request('http://localhost:8787/api/agent/v1/jobs', jsonInit(braceletBody));
      expect(response.status).toBe(201);
    } finally {
      await service.close();
    }
  });

  it('refuses to start without the token, or with a token signed by another key: the server answers 401', async () => {
    const refusal = (databaseAuthToken?: string) =>
      start(databaseAuthToken).then(
        (service) => service.close().then(() => 'started'),
        (error: Error) => String(error.cause),
      );
    expect(await refusal()).toContain('HTTP status 401');
    const other = generateKeyPairSync('ed25519').privateKey;
    const forged = `${unsigned}.${sign(null, Buffer.from(unsigned), other).toString('base64url')}`;
    expect(await refusal(forged)).toContain('HTTP status 401');
  });
});
