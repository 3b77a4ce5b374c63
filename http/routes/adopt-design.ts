import { z } from 'zod';
import { coreError, invalidRequest, adoptRequestSchema, designCreatedSchema } from '../../core/index.ts';
import { isFormPost, requestAccount } from '../handoff.ts';
import { ref } from '../openapi/components.ts';
import { tokenPath } from '../openapi/operation.ts';
import { counted, formRedirect, jsonAnswer, rateLimited, refusal, unexpected } from '../openapi/responses.ts';
import { seeOther } from '../../web/html.ts';
import { approvalPath, confirmPath } from '../../web/paths.ts';
import { rateLimitListener } from '../rate-limit-headers.ts';
import { readJsonText } from '../read-body.ts';
import { defineRoute } from '../route.ts';
import { answer, errorResponse } from '../respond.ts';

const adoptBody = z.strictObject({ submissionNo: z.unknown() });

/** `POST /handoff/{token}/adopt`: the approval page's approve button. */
export const adoptDesign = defineRoute({
  method: 'POST',
  path: '/handoff/:token/adopt',
  openapi: () => ({
    operationId: 'adoptDesign',
    tag: 'Approval page',
    summary: 'Approve the design (approval page only)',
    description:
      "The approval page's approve button; agents never call it. Needs the person's site session. If submissionNo is the job's current ready submission, a design is created in the person's account and the job is locked to approved (compare-and-set pinned to that submission). The page's plain form posts get 303 redirects instead of JSON: to sign-in and back without a session, to /designs/{designId} after approving, back to /a/{token}?e=CODE on a refusal.",
    security: [{ siteSession: [] }],
    parameters: tokenPath,
    requestBody: {
      required: true,
      content: {
        'application/json': { schema: ref(adoptRequestSchema) },
        'application/x-www-form-urlencoded': {
          schema: {
            type: 'object',
            required: ['submissionNo'],
            properties: { submissionNo: { type: 'string', pattern: '^[0-9]{1,4}$' } },
          },
        },
      },
    },
    responses: {
      201: counted(jsonAnswer('The design was created.', ref(designCreatedSchema))),
      200: counted(jsonAnswer('The same account approved it already: the same designId.', ref(designCreatedSchema))),
      303: formRedirect('A form post: where the page goes next.'),
      400: counted(
        refusal(
          400,
          ['INVALID_REQUEST', 'LENGTH_OUT_OF_RANGE'],
          'submissionNo is missing or malformed, or the dimensions no longer pass.',
        ),
      ),
      401: refusal(401, ['ACCOUNT_REQUIRED'], 'No signed-in person (a request from another site counts as none).'),
      404: counted(refusal(404, ['NOT_FOUND'], 'Unknown approval token, or nothing to approve.')),
      409: counted(
        refusal(
          409,
          ['ALREADY_APPROVED', 'SUBMISSION_SUPERSEDED'],
          'Another account approved first, or submissionNo is no longer the current ready submission.',
        ),
      ),
      429: rateLimited(),
      500: unexpected(),
      503: refusal(503, ['AUTH_UNAVAILABLE'], 'The sign-in service could not verify the session; retryable.'),
    },
  }),
  async handle(c, { core }) {
    const token = c.req.param('token') ?? '';
    const form = isFormPost(c);
    const session = await requestAccount(c, core);
    if (!session.ok) return form ? seeOther(approvalPath(token, session.error.code)) : errorResponse(session.error);
    if (!session.account) {
      if (form) return seeOther(await signInThenConfirm(c.req.raw, token));
      return errorResponse(coreError('ACCOUNT_REQUIRED'));
    }
    const submissionNo = form ? await formSubmissionNo(c.req.raw) : await jsonSubmissionNo(c.req.raw);
    if (!submissionNo.ok)
      return form ? seeOther(approvalPath(token, 'INVALID_REQUEST')) : errorResponse(submissionNo.error);
    const rate = rateLimitListener();
    const result = await core.adopt(token, submissionNo.value, session.account.accountId, rate.observe);
    // A page's form post is a navigation: its 303 carries no rate-limit headers (the draft warns
    // that a low remaining count on a redirect can hold a client back from following it).
    if (form) return seeOther(result.ok ? `/designs/${result.value.designId}` : approvalPath(token, result.error.code));
    const headers = rate.headers();
    if (!result.ok) return errorResponse(result.error, headers);
    return answer(designCreatedSchema, result.value.created ? 201 : 200, { designId: result.value.designId }, headers);
  },
});

/**
 * Sign-in first, then the confirmation page for the version the form was for, which finishes the
 * approval with one press (a form without a usable number returns to the approval page).
 */
async function signInThenConfirm(request: Request, token: string): Promise<string> {
  const submissionNo = await formSubmissionNo(request);
  const next = submissionNo.ok ? confirmPath(token, submissionNo.value) : approvalPath(token);
  return `/signin?next=${encodeURIComponent(next)}`;
}

async function formSubmissionNo(request: Request) {
  const form = await request.formData().catch(() => undefined);
  const text = form?.get('submissionNo');
  if (typeof text !== 'string' || !/^[0-9]{1,4}$/.test(text)) {
    return { ok: false as const, error: invalidRequest('Field "submissionNo" must be an integer.') };
  }
  return { ok: true as const, value: Number(text) };
}

async function jsonSubmissionNo(request: Request) {
  const text = await readJsonText(request, 4096);
  if (!text.ok) return text;
  let value: unknown;
  try {
    value = JSON.parse(text.value);
  } catch {
    return { ok: false as const, error: invalidRequest('The request body is not valid JSON.') };
  }
  const parsed = adoptBody.safeParse(value);
  if (!parsed.success || parsed.data.submissionNo === undefined) {
    return {
      ok: false as const,
      error: invalidRequest('The body must be {"submissionNo": integer} and nothing else.'),
    };
  }
  return { ok: true as const, value: parsed.data.submissionNo };
}
