import type { Context } from 'hono';
import type { Core } from '../core/index.ts';

/** What the http adapter tells the pages about the request and the service. */
export interface WebOptions {
  /** The caller's address for sign-in throttling (the http adapter knows about proxies). */
  clientAddress(c: Context): string;
  /** `false` in the switched-off state: approval links then show the site's 404 page. */
  apiEnabled: boolean;
}

export interface Web extends WebOptions {
  core: Core;
}
