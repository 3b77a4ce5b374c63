import type { Database } from '../db/database.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { KeyedHash } from './keyed-hash.ts';
import type { RateLimiter } from './limits/rate-limiter.ts';
import type { Logger } from './logger.ts';
import type { Pipeline } from './pipeline/types.ts';
import type { Randomness } from './randomness.ts';
import type { SecretBox } from './secret-box.ts';
import type { ServiceUrls } from './urls.ts';

/** Everything domain code may reach: no globals for time, ids, randomness or storage. */
export interface CoreDeps {
  db: Database;
  clock: Clock;
  random: Randomness;
  config: Config;
  urls: ServiceUrls;
  log: Logger;
  pipeline: Pipeline;
  keyedHash: KeyedHash;
  secretBox: SecretBox;
  limiter: RateLimiter;
}
