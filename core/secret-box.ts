import { createCipheriv, createDecipheriv } from 'node:crypto';
import type { Database } from '../db/database.ts';
import type { Randomness } from './randomness.ts';
import { loadServerKey } from './server-keys.ts';

/**
 * Authenticated encryption (AES-256-GCM) under a server key every instance on the database
 * shares. `context` is bound as associated data: a sealed value only opens for the same context.
 */
export interface SecretBox {
  seal(plaintext: string, context: string): string;
  /** The plaintext, or undefined when the value was altered, sealed under another key or context. */
  open(sealed: string, context: string): string | undefined;
}

const KEY_NAME = 'secret-box-aes-256-gcm';
const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** Loads the encryption key, creating it on first start. */
export async function loadSecretBox(db: Database, random: Randomness): Promise<SecretBox> {
  const encoded = await loadServerKey(db, random, KEY_NAME);
  return secretBoxFromKey(Buffer.from(encoded, 'base64url'), random);
}

/** `v1.<nonce>.<ciphertext>.<tag>`, each part base64url. */
function secretBoxFromKey(key: Uint8Array, random: Randomness): SecretBox {
  if (key.length !== 32) throw new Error('secret-box key must be 32 bytes');
  return {
    seal(plaintext, context) {
      const nonce = Buffer.from(random.bytes(NONCE_BYTES));
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const parts = [nonce, body, cipher.getAuthTag()].map((b) => b.toString('base64url'));
      return [VERSION, ...parts].join('.');
    },
    open(sealed, context) {
      const [version, nonce, body, tag, ...rest] = sealed.split('.');
      if (version !== VERSION || nonce === undefined || body === undefined || tag === undefined || rest.length > 0) {
        return undefined;
      }
      const nonceBytes = Buffer.from(nonce, 'base64url');
      const tagBytes = Buffer.from(tag, 'base64url');
      if (nonceBytes.length !== NONCE_BYTES || tagBytes.length !== TAG_BYTES) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, nonceBytes, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(tagBytes);
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}
