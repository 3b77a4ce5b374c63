import { declineChoices, type ApprovalView } from '../../core/index.ts';
import { escapeHtml } from '../html.ts';
import { approvalPath } from '../paths.ts';
import { he } from '../strings.ts';

/** Where the approval page's own decline form posts (`web/pages/approval-decline.ts`). */
const declineFormPath = (token: string): string => `${approvalPath(token)}/decline`;

/** One radio, inside its label so that the whole row is the touch target. */
function choiceRow(value: string, label: string, checked: boolean): string {
  return `<label class="choice"><input type="radio" name="choice" value="${escapeHtml(value)}"${checked ? ' checked' : ''}> ${escapeHtml(label)}</label>`;
}

/**
 * The approval page's decline form: an optional reason (one of the fixed choices, the person's own
 * words up to `maxChars` characters, both or neither) and the decline button. "No reason" is a
 * choice of its own, checked at first, since a radio once picked cannot be cleared without script.
 * `errorCode` marks the text as the field at fault when the last decline was refused for its length.
 * The version shown goes with the form, so the decline lands on it and on no newer one.
 */
export function declineForm(
  view: Pick<ApprovalView, 'token' | 'submissionNo'>,
  maxChars: number,
  errorCode?: string,
): string {
  const words = he.approval.declineReason;
  const max = String(maxChars);
  const invalid = errorCode === 'DECLINE_TEXT_TOO_LONG' ? ' aria-invalid="true"' : '';
  return `<form class="decline-form" method="post" action="${escapeHtml(declineFormPath(view.token))}">
<input type="hidden" name="submissionNo" value="${escapeHtml(view.submissionNo)}">
<fieldset class="choices">
<legend>${escapeHtml(words.legend)}</legend>
${choiceRow('', words.none, true)}
${declineChoices.map((code) => choiceRow(code, words.choices[code], false)).join('\n')}
</fieldset>
<div class="field">
<label for="decline-text">${escapeHtml(words.textLabel)}</label>
<textarea id="decline-text" name="text" rows="4" maxlength="${escapeHtml(max)}" dir="auto" aria-describedby="decline-text-hint"${invalid}></textarea>
<p class="hint" id="decline-text-hint">${escapeHtml(words.textHint(max))}</p>
</div>
<div><button type="submit" class="btn btn-secondary">${escapeHtml(he.approval.decline)}</button></div>
</form>`;
}

/** The declined page's line with the person's reason, their words escaped; nothing when they gave none. */
export function declinedReasonLine(view: Pick<ApprovalView, 'declineReason'>): string {
  const reason = view.declineReason;
  if (!reason) return '';
  const words = he.approval.declineReason;
  const choice = reason.choice ? ` ${escapeHtml(words.choices[reason.choice])}` : '';
  const text = reason.text ? `<bdi class="decline-text">${escapeHtml(reason.text)}</bdi>` : '';
  return `<p class="decline-reason"><strong>${escapeHtml(words.yours)}</strong>${choice}${text}</p>`;
}
