import { z } from 'zod';

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes'].includes(v)));

/** The run interface of decisions §1, parsed once at start. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  SITE_URL: z.url().optional(),
  DATABASE_URL: z.string().min(1).default('file:data/jewellery.db'),
  DATABASE_AUTH_TOKEN: z.string().optional(),
  CONFIG_FILE: z.string().optional(),
  AGENT_API_ENABLED: flag(true),
  TRUST_PROXY: flag(false),
});

export interface RunSettings {
  port: number;
  siteUrl: string;
  databaseUrl: string;
  databaseAuthToken: string | undefined;
  configFile: string | undefined;
  apiEnabled: boolean;
  trustProxy: boolean;
}

export function readRunSettings(env: NodeJS.ProcessEnv): RunSettings {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    siteUrl: e.SITE_URL ?? `http://localhost:${e.PORT}`,
    databaseUrl: e.DATABASE_URL,
    databaseAuthToken: e.DATABASE_AUTH_TOKEN,
    configFile: e.CONFIG_FILE,
    apiEnabled: e.AGENT_API_ENABLED,
    trustProxy: e.TRUST_PROXY,
  };
}
