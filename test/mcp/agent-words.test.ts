import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/config.ts';
import { SIZE_FORMS_MESSAGE } from '../../core/contract/create-job.ts';
import { configuredError, coreError, errorCodes, errorStatus, wordsIn, type ErrorCode } from '../../core/errors.ts';
import { mcpTerms } from '../../mcp/results.ts';
import { errorOf, jsonInit, roomyRateLimits } from '../helpers/flows.ts';
import { braceletArgs, connectMcp, errorEnvelope, openedPerTest } from '../helpers/mcp.ts';
import { servicePerTest, startService, type TestService } from '../helpers/service.ts';

/**
 * Core writes an agent's words with slots (core/contract/agent-words.ts) and each surface fills
 * them: REST with the contract's own words, the MCP tools with tool names and flat fields. Read here
 * as each caller receives them.
 */

/** REST's ways of acting, which an MCP caller cannot follow. */
const REST_ONLY = [/\b(GET|POST|DELETE) \//, /\bsize\.\w/, /\bcapabilities\.products\b/, /Content-Type/];

const QUOTING: Partial<Record<ErrorCode, unknown>> = {
  FILE_TOO_LARGE: defaultConfig.image,
  IMAGE_TOO_SMALL: defaultConfig.image,
  IMAGE_TOO_LARGE: defaultConfig.image,
  WIDTH_OUT_OF_RANGE: defaultConfig.image,
  TOO_MANY_SUBMISSIONS: defaultConfig.limits,
};

/** Every envelope code of the catalogue with its default words. */
const catalogue = errorCodes
  .filter((code) => errorStatus(code) !== undefined)
  .map((code) => (code in QUOTING ? configuredError(code as never, QUOTING[code] as never) : coreError(code as never)));

describe('the catalogue in each surface’s words', () => {
  it('tells an MCP caller of tools and flat fields wherever REST names a request or a nested field', () => {
    // Not reachable over MCP: the upload's HTTP body and methods, the API's routes.
    const httpOnly = new Set(['UNSUPPORTED_FORMAT', 'METHOD_NOT_ALLOWED']);
    for (const error of catalogue) {
      const { message, agent_instruction } = wordsIn(error, mcpTerms);
      for (const pattern of REST_ONLY) {
        expect(message, error.code).not.toMatch(pattern);
        if (!(httpOnly.has(error.code) && pattern.source.includes('Content'))) {
          expect(agent_instruction ?? '', error.code).not.toMatch(pattern);
        }
      }
    }
  });

  it('keeps the contract’s words for REST, slots filled with its requests and fields', () => {
    const byCode = new Map(catalogue.map((e) => [e.code, e]));
    expect(byCode.get('JOB_CANCELLED')!.agent_instruction).toBe('Open a new job with POST /jobs to continue.');
    expect(byCode.get('LENGTH_OUT_OF_RANGE')!.agent_instruction).toBe(
      'Choose a size whose blank length lies inside capabilities.products[productType].lengthRangeMm, or send size.lengthMm inside that range.',
    );
    expect(byCode.get('SUBMISSION_IN_PROGRESS')!.agent_instruction).toBe(
      'Wait 10 seconds, then read GET /jobs/{jobId}/submissions/{no} until its status leaves processing. Do not upload the same bytes again meanwhile.',
    );
    expect(byCode.get('INVALID_REQUEST')!.agent_instruction).toBe(
      'Fix the named field and send the request again; see GET /capabilities for the accepted values.',
    );
    for (const error of catalogue) {
      expect(JSON.stringify([error.message, error.agent_instruction]), error.code).not.toMatch(/\[object Object\]/);
    }
  });

  it('says the same words in both surfaces where nothing in them is REST’s', () => {
    const plain = catalogue.find((e) => e.code === 'JOB_LOCKED')!;
    expect(wordsIn(plain, mcpTerms)).toEqual({ message: plain.message, agent_instruction: plain.agent_instruction });
  });
});

describe('refusals as each caller receives them', () => {
  const service = servicePerTest({ config: { limits: roomyRateLimits } });
  const { clients, services: opened } = openedPerTest();
  const connect = async (on: TestService, clientAddress?: string) => {
    const client = await connectMcp(on, { era: 'modern', ...(clientAddress ? { clientAddress } : {}) });
    clients.push(client);
    return client;
  };

  it('a size out of the product’s range: REST names capabilities and size.lengthMm, MCP get_capabilities and lengthMm', async () => {
    const rest = await errorOf(
      await service.api('/jobs', jsonInit({ productType: 'bracelet', size: { lengthMm: 900 }, widthMm: 20 })),
    );
    expect(rest.body.error).toMatchObject({
      code: 'LENGTH_OUT_OF_RANGE',
      agent_instruction:
        'Choose a size whose blank length lies inside capabilities.products[productType].lengthRangeMm, or send size.lengthMm inside that range.',
    });
    const mcp = await connect(service);
    const refused = errorEnvelope(await mcp.call('open_job', { productType: 'bracelet', lengthMm: 900, widthMm: 20 }));
    expect(refused).toMatchObject({
      code: 'LENGTH_OUT_OF_RANGE',
      agent_instruction:
        'Choose a size whose blank length lies inside get_capabilities → products[productType].lengthRangeMm, or send lengthMm inside that range.',
    });
  });

  it('a full job bucket: REST waits for the next POST /jobs request, MCP for the next open_job call', async () => {
    const limited = await startService({ config: { limits: { ...roomyRateLimits, jobsPerHourPerIp: 1 } } });
    opened.push(limited);
    const mcp = await connect(limited, '198.51.100.9');
    expect((await mcp.call('open_job', braceletArgs)).isError).toBeFalsy();
    const overMcp = errorEnvelope(await mcp.call('open_job', braceletArgs));
    expect(overMcp.code).toBe('RATE_LIMITED');
    expect(overMcp.agent_instruction).toMatch(
      /^Wait \d+ seconds before the next open_job call; do not retry sooner\.$/,
    );

    const body = { productType: 'bracelet', size: { wristMm: 160 }, widthMm: 20 };
    expect((await limited.api('/jobs', jsonInit(body), '198.51.100.10')).status).toBe(201);
    const overRest = await errorOf(await limited.api('/jobs', jsonInit(body), '198.51.100.10'));
    expect(overRest.body.error.agent_instruction).toMatch(
      /^Wait \d+ seconds before the next POST \/jobs request; do not retry sooner\.$/,
    );
  });

  it('a ring sized by the wrist: the flat field and the flat size forms over MCP, REST’s nested ones over REST', async () => {
    const rest = await errorOf(
      await service.api('/jobs', jsonInit({ productType: 'ring', size: { wristMm: 160 }, widthMm: 6 })),
    );
    expect(rest.message).toBe(`size.wristMm is for bracelets only. ${SIZE_FORMS_MESSAGE}`);
    const mcp = await connect(service);
    const refused = errorEnvelope(await mcp.call('open_job', { productType: 'ring', wristMm: 160, widthMm: 6 }));
    expect(refused.message).toMatch(
      /^wristMm is for bracelets only\. Give the size in exactly one of three forms: wristMm \(a number/,
    );
    expect(refused.message).not.toContain('size.');
  });
});
