import type { Core } from '../../core/index.ts';
import { capabilitiesSchema } from '../openapi/capabilities-schema.ts';
import { ref } from '../openapi/components.ts';
import { open } from '../openapi/operation.ts';
import { jsonAnswer, unexpected } from '../openapi/responses.ts';
import { defineRoute } from '../route.ts';
import { jsonText } from '../respond.ts';

/**
 * The configuration is read once at start, so the capabilities never change while the service
 * runs: they are serialised on the first request, not on every one (the busiest read there is).
 */
const serialised = new WeakMap<Core, string>();

export const getCapabilities = defineRoute({
  method: 'GET',
  path: '/capabilities',
  openapi: () => ({
    operationId: 'getCapabilities',
    tag: 'Discovery',
    summary: 'What the service makes and its live limits',
    description:
      'Products with length and width ranges and prices, the size forms, the image rules, the limits and the error catalogue, read at call time from the same configuration the validator enforces. Fetch once per session. No authentication, no rate limit. While the API is switched off this path answers the site 404 page (text/html).',
    security: open,
    responses: { 200: jsonAnswer('The capabilities.', ref(capabilitiesSchema)), 500: unexpected() },
  }),
  handle: (c, { core }) => {
    let text = serialised.get(core);
    if (text === undefined) {
      text = JSON.stringify(core.capabilities());
      serialised.set(core, text);
    }
    return jsonText(200, text);
  },
});
