import type { Context } from 'hono';
import type { Core } from '../core/index.ts';

export type Method = 'GET' | 'POST' | 'DELETE';

export interface RouteEnv {
  core: Core;
  trustProxy: boolean;
}

/** One endpoint of the v1 contract; `path` is relative to the API base. */
export interface ApiRoute {
  method: Method;
  path: string;
  handle(c: Context, env: RouteEnv): Promise<Response> | Response;
}

export const defineRoute = (route: ApiRoute): ApiRoute => route;
