import { defineRoute } from '../route.ts';
import { json } from '../respond.ts';

export const getCapabilities = defineRoute({
  method: 'GET',
  path: '/capabilities',
  handle: (c, { core }) => json(200, core.capabilities()),
});
