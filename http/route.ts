import type { Context } from 'hono';
import type { Core } from '../core/index.ts';
import type { Describe } from './openapi/operation.ts';

export type Method = 'GET' | 'POST' | 'DELETE';

export interface RouteEnv {
  core: Core;
  trustProxy: boolean;
}

/**
 * One endpoint of the v1 contract; `path` is relative to the API base. The app serves it from
 * `http/routes/index.ts`, and the OpenAPI document states it from the same entry.
 */
export interface ApiRoute {
  method: Method;
  path: string;
  /** How the OpenAPI document describes this endpoint, from the live configuration. */
  openapi: Describe;
  handle(c: Context, env: RouteEnv): Promise<Response> | Response;
}

export const defineRoute = (route: ApiRoute): ApiRoute => route;
