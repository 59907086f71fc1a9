/**
 * POST /documents/{id}/send (a Quayside extension): the stored file emailed through the
 * operator's outgoing mail server, to the addresses given or, for a delivery order, to its
 * trucker's contacts; who it went to and when is kept as the document's `emailed` attribute.
 */
import { isoString } from '../../shared/clock';
import type { DeliveryOrderAttribute } from '../../shared/api/delivery-order';
import type { ServiceContext } from '../context';
import { OutgoingMailError } from '../email/outgoing-mail';
import { ApiError } from '../jsonapi/errors';
import { EMAIL_RE } from '../parties';
import type { DocumentRow } from '../store/documents';
import { documentOf } from './records';

/** Most recipients of one sending. */
export const MAX_RECIPIENTS = 20;

export const SEND_DOC = `Quayside extension: emails the document's file as an attachment through the service's outgoing mail server (\`quayside serve --smtp-url\`; \`GET /documents/settings\` says whether one is configured as \`outgoing_mail\`). Body \`{data: {attributes: {to: [emails]}}}\` (at most ${MAX_RECIPIENTS}); without \`to\`, a delivery order goes to the email addresses of its trucker's contacts. Answers 201 with the document, whose \`emailed\` attribute says who it went to and when. 409 when no outgoing mail server is configured; 422 for an invalid address or no recipient; 502 when the mail server refuses the message.`;

function recipientsGiven(to: string[]): string[] {
  to.forEach((address, i) => {
    if (!EMAIL_RE.test(address.trim()) || address.length > 254) {
      throw new ApiError(422, `'${address}' is not an email address`, {
        code: 'invalid_address',
        source: { pointer: `/data/attributes/to/${i}` },
      });
    }
  });
  return [...new Set(to.map((a) => a.trim()))];
}

/** The email addresses of the order's trucker's contacts, or a 422 saying there are none. */
async function truckerRecipients(
  ctx: ServiceContext,
  accountId: string,
  order: DeliveryOrderAttribute,
): Promise<string[]> {
  const party = await ctx.stores.parties.owned(accountId, order.trucker.id);
  const contacts = party ? (JSON.parse(party.contacts) as { email?: string | null }[]) : [];
  const emails = [...new Set(contacts.flatMap((c) => (c.email ? [c.email] : [])))];
  if (emails.length === 0) {
    throw new ApiError(
      422,
      `${party?.company_name ?? order.trucker.name} has no contact with an email address: add one to the trucker or give data.attributes.to`,
      { code: 'no_recipient', source: { pointer: '/data/attributes/to' } },
    );
  }
  return emails;
}

async function message(ctx: ServiceContext, accountId: string, row: DocumentRow) {
  const order = row.delivery_order
    ? (JSON.parse(row.delivery_order) as DeliveryOrderAttribute)
    : null;
  if (!order) {
    return { subject: `Document: ${row.name}`, text: `Attached: ${row.file_name}.\n` };
  }
  const container = await ctx.stores.reads.ownedContainer(accountId, order.container.id);
  const shipment = container
    ? await ctx.stores.reads.ownedShipment(accountId, container.shipment_id)
    : undefined;
  const bl = shipment?.bill_of_lading_number;
  const lfd = order.last_free_day ? `Last free day: ${order.last_free_day.date}.\n` : '';
  return {
    subject: `Delivery order: container ${order.container.number}${bl ? `, B/L ${bl}` : ''}`,
    text:
      `Hello ${order.trucker.name},\n\n` +
      `Attached is the delivery order for container ${order.container.number}` +
      `${bl ? ` (B/L ${bl})` : ''}${order.terminal ? `, to be picked up at ${order.terminal}` : ''}.\n` +
      lfd,
  };
}

export async function sendDocumentByEmail(
  ctx: ServiceContext,
  accountId: string,
  id: string,
  to: string[] | undefined,
): Promise<DocumentRow> {
  const row = await documentOf(ctx.documents, accountId, id);
  const mail = ctx.config.outgoingMail;
  if (!mail) {
    throw new ApiError(
      409,
      'This service has no outgoing mail server configured (its operator sets one with quayside serve --smtp-url), so nothing can be sent by email',
      { code: 'no_outgoing_mail' },
    );
  }
  const order = row.delivery_order
    ? (JSON.parse(row.delivery_order) as DeliveryOrderAttribute)
    : null;
  let recipients: string[];
  if (to && to.length > 0) recipients = recipientsGiven(to);
  else if (order) recipients = await truckerRecipients(ctx, accountId, order);
  else {
    throw new ApiError(422, 'Say who to send the document to in data.attributes.to', {
      code: 'no_recipient',
      source: { pointer: '/data/attributes/to' },
    });
  }
  const bytes = await ctx.documents.files.read(row.sha256);
  const { subject, text } = await message(ctx, accountId, row);
  try {
    await mail.send({
      to: recipients,
      subject,
      text,
      attachment: { fileName: row.file_name, contentType: row.content_type, bytes },
    });
  } catch (error) {
    if (error instanceof OutgoingMailError) throw new ApiError(502, error.message);
    throw error;
  }
  await ctx.documents.store.recordEmailed(accountId, row.id, {
    to: recipients,
    sent_at: isoString(ctx.clock.now()),
  });
  return (await ctx.documents.store.get(accountId, row.id))!;
}
