import { afterEach, describe, expect, it } from 'vitest';
import { roomyRateLimits } from '../helpers/flows.ts';
import { braceletArgs, connectMcp, textOf, type Era, type McpTestClient } from '../helpers/mcp.ts';
import { makePng } from '../helpers/png.ts';
import { servicePerTest } from '../helpers/service.ts';

/**
 * check_approval tells the agent why the person declined: `approval.declineReason` in its
 * structured result (checked by the real client against the listed output schema) and in its text,
 * the person's words quoted as a JSON string, at both protocol revisions.
 */

const config = { limits: roomyRateLimits };
const service = servicePerTest({ config });
const clients: McpTestClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

const WORDS = 'Narrower, please.\nAnd "no" <b>spikes</b> — בלי קוצים';

async function readyJob(era: Era) {
  const mcp = await connectMcp(service, { era });
  clients.push(mcp);
  // Listing the tools makes the client hold every structured result to its output schema.
  await mcp.client.listTools();
  const opened = await mcp.call('open_job', braceletArgs);
  const { jobHandle } = opened.structuredContent as { jobHandle: string };
  const png = Buffer.from(makePng({ width: 600, height: 400, seed: 7 })).toString('base64');
  const passed = await mcp.call('submit_design', { jobHandle, pngBase64: png });
  const ready = passed.structuredContent as { status: string; approval: { url: string; declineReason: unknown } };
  expect(ready.status, textOf(passed)).toBe('ready');
  return { mcp, jobHandle, token: ready.approval.url.split('/a/')[1]!, ready };
}

const declineOnPage = (token: string, fields: Record<string, string>) =>
  service.fetch(`/a/${token}/decline`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams(fields).toString(),
  });

describe.each(['legacy', 'modern'] as const)('check_approval for a %s client', (era) => {
  it('lists declineReason in its output schema, with what each choice means', async () => {
    const mcp = await connectMcp(service, { era });
    clients.push(mcp);
    const { tools } = await mcp.client.listTools();
    const check = tools.find((t) => t.name === 'check_approval')!;
    const schema = JSON.stringify(check.outputSchema);
    expect(schema).toContain('"declineReason"');
    for (const code of ['price', 'size', 'look', 'changes', 'other']) expect(schema).toContain(`"${code}"`);
    expect(schema).toContain('the price is too high');
    expect(check.description).toContain('approval.declineReason');
  });

  it('shows the reason the person gave, structured and in words, and none while pending', async () => {
    const { mcp, jobHandle, token, ready } = await readyJob(era);
    expect(ready.approval.declineReason).toBeNull();
    const waiting = await mcp.call('check_approval', { jobHandle });
    expect(waiting.structuredContent).toMatchObject({ approval: { status: 'pending', declineReason: null } });
    expect(textOf(waiting)).not.toContain('reason');

    expect((await declineOnPage(token, { choice: 'look', text: WORDS })).status).toBe(303);
    const declined = await mcp.call('check_approval', { jobHandle });
    expect(declined.isError).toBeFalsy();
    expect(declined.structuredContent).toMatchObject({
      status: 'declined',
      approval: { status: 'declined', declineReason: { choice: 'look', text: WORDS } },
    });
    const text = textOf(declined);
    expect(text).toContain("The person's reason: look (the design does not look like what they wanted).");
    expect(text).toContain(JSON.stringify(WORDS));
    expect(text).not.toContain(WORDS);
    expect((declined.structuredContent as { next: string }).next).toContain('said why (approval.declineReason)');
  });

  it('says when the person declined without a reason', async () => {
    const { mcp, jobHandle, token } = await readyJob(era);
    expect((await declineOnPage(token, {})).status).toBe(303);
    const declined = await mcp.call('check_approval', { jobHandle });
    expect(declined.structuredContent).toMatchObject({ approval: { status: 'declined', declineReason: null } });
    expect(textOf(declined)).not.toContain("The person's reason");
    expect((declined.structuredContent as { next: string }).next).toContain('Ask them what to change');
  });

  it('shows words alone, with no choice', async () => {
    const { mcp, jobHandle, token } = await readyJob(era);
    await declineOnPage(token, { text: 'too shiny' });
    const declined = await mcp.call('check_approval', { jobHandle });
    expect(declined.structuredContent).toMatchObject({
      approval: { declineReason: { choice: null, text: 'too shiny' } },
    });
    expect(textOf(declined)).toContain('The person gave no reason from the list.');
    expect(textOf(declined)).toContain('"too shiny"');
  });
});
