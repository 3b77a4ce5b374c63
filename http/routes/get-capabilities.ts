import type { Core } from '../../core/index.ts';
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
  handle: (c, { core }) => {
    let text = serialised.get(core);
    if (text === undefined) {
      text = JSON.stringify(core.capabilities());
      serialised.set(core, text);
    }
    return jsonText(200, text);
  },
});
