import { parseSubmissionNo, declinedSchema } from '../../core/index.ts';
import { isFormPost } from '../handoff.ts';
import { mediaType, readJsonText } from '../read-body.ts';
import { ref } from '../openapi/components.ts';
import { open, tokenPath } from '../openapi/operation.ts';
import { formRedirect, jsonAnswer, refusal, unexpected } from '../openapi/responses.ts';
import { approvalPath } from '../../web/paths.ts';
import { seeOther } from '../../web/html.ts';
import { defineRoute } from '../route.ts';
import { answer, errorResponse } from '../respond.ts';

/** `POST /handoff/{token}/decline`: the approval page's decline button; the token is enough. */
export const declineDesign = defineRoute({
  method: 'POST',
  path: '/handoff/:token/decline',
  openapi: () => ({
    operationId: 'declineDesign',
    tag: 'Approval page',
    summary: 'Decline the design (approval page only)',
    description:
      "The approval page's decline button; agents never call it. The token is enough: no account, and the body is optional. A ready job becomes declined; repeating it answers 200. The page's plain form post gets a 303 back to the page. This route stores no reason (approval.declineReason reads null after it); the page's own form, with the person's optional reason, posts to the site path /a/{token}/decline instead, which is not part of this API. Addition to the contract: an optional submissionNo (the version the caller showed, as a form field or JSON) pins the decline to it; when another submission is current by then, nothing is declined and the answer is 409 SUBMISSION_SUPERSEDED.",
    security: open,
    parameters: tokenPath,
    requestBody: {
      required: false,
      content: {
        'application/x-www-form-urlencoded': {
          schema: { type: 'object', properties: { submissionNo: { type: 'string', pattern: '^[0-9]{1,4}$' } } },
        },
        'application/json': {
          schema: {
            type: 'object',
            additionalProperties: false,
            properties: { submissionNo: { type: 'integer', minimum: 1, maximum: 9999 } },
          },
        },
      },
    },
    responses: {
      200: jsonAnswer('Declined (also when repeated).', ref(declinedSchema)),
      303: formRedirect('A form post: back to the approval page.'),
      400: refusal(400, ['INVALID_REQUEST'], 'submissionNo is given but is not an integer from 1 to 9999.'),
      404: refusal(404, ['NOT_FOUND'], 'Unknown token, or nothing to decline.'),
      409: refusal(
        409,
        ['JOB_LOCKED', 'SUBMISSION_SUPERSEDED'],
        'The job is approved, or submissionNo is no longer the current submission.',
      ),
      500: unexpected(),
    },
  }),
  async handle(c, { core }) {
    const token = c.req.param('token') ?? '';
    const form = isFormPost(c);
    const shown = form ? await formShownNo(c.req.raw) : await jsonShownNo(c.req.raw);
    const result = await core.decline(token, undefined, shown);
    if (form) return seeOther(approvalPath(token, result.ok ? undefined : result.error.code));
    return result.ok ? answer(declinedSchema, 200, { ok: true, status: 'declined' }) : errorResponse(result.error);
  },
});

/** The version a form showed: a number, the field's text when it is not one, nothing when absent. */
async function formShownNo(request: Request): Promise<unknown> {
  const text = (await request.formData().catch(() => undefined))?.get('submissionNo');
  if (typeof text !== 'string') return undefined;
  return parseSubmissionNo(text) ?? text;
}

/**
 * A JSON object's `submissionNo`. Any other body pins nothing and is ignored, as every body was
 * before the field existed (the contract's route needs none).
 */
async function jsonShownNo(request: Request): Promise<unknown> {
  const type = mediaType(request.headers.get('content-type'));
  if (type !== 'application/json' && !type.endsWith('+json')) return undefined;
  const text = await readJsonText(request, 4096);
  if (!text.ok) return undefined;
  try {
    const body: unknown = JSON.parse(text.value);
    return typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as { submissionNo?: unknown }).submissionNo
      : undefined;
  } catch {
    return undefined;
  }
}
