/**
 * Truckers: adding one and assigning one to containers, calls made to the tracking service
 * directly (like custom field edits: refused in plain words while it cannot be reached, never
 * queued). The service keeps the assignment, so every desktop sees it after its next sync.
 */
import type { TruckerRecord } from '../../shared/desktop';
import { OFFLINE_EDIT_MESSAGE } from './custom-field-requests';
import { call } from './service-requests';
import type { ServiceBudgets, ServiceConnection } from '../connection/service-connection';
import { truckerOf } from '../sync/truckers';

/** The service's limit of containers per PATCH /containers. */
const ASSIGN_BATCH = 100;

type Failure = { ok: false; message: string };

function failure(status: number, json: unknown): Failure {
  if (status === 0) return { ok: false, message: OFFLINE_EDIT_MESSAGE };
  if (status === 401) return { ok: false, message: 'The tracking service refused the API key.' };
  const detail = (json as { errors?: { detail?: string; title?: string }[] } | null)?.errors?.[0];
  return {
    ok: false,
    message: detail?.detail ?? detail?.title ?? `The tracking service answered HTTP ${status}.`,
  };
}

export interface NewTrucker {
  companyName: string;
  scac?: string;
  contactName?: string;
  email?: string;
  phone?: string;
}

/** Adds a party with the trucker role; the service checks the SCAC and the email. */
export async function createTrucker(
  connection: ServiceConnection | null,
  input: NewTrucker,
  budgets?: ServiceBudgets,
): Promise<{ ok: true; trucker: TruckerRecord } | Failure> {
  if (!connection) return { ok: false, message: OFFLINE_EDIT_MESSAGE };
  const contact = {
    name: input.contactName?.trim() || null,
    email: input.email?.trim() || null,
    phone: input.phone?.trim() || null,
  };
  const { status, json } = await call(connection, budgets, 'POST', 'parties', {
    data: {
      type: 'party',
      attributes: {
        company_name: input.companyName.trim(),
        roles: ['trucker'],
        scac: input.scac?.trim() || null,
        contacts: contact.name || contact.email || contact.phone ? [contact] : [],
      },
    },
  });
  if (status !== 201) return failure(status, json);
  const trucker = truckerOf((json as { data?: unknown } | null)?.data);
  // A service that drops the role made a party, but no trucker.
  if (!trucker) return { ok: false, message: 'The tracking service does not keep truckers.' };
  return { ok: true, trucker };
}

/**
 * Assigns the trucker (null: none) to the containers, 100 per request (each request all or
 * nothing at the service), or to every container of a shipment in one request.
 */
export async function assignTrucker(
  connection: ServiceConnection | null,
  target: { containerIds?: string[]; shipmentId?: string; truckerId: string | null },
  budgets?: ServiceBudgets,
): Promise<{ ok: true; assigned: number } | Failure> {
  if (!connection) return { ok: false, message: OFFLINE_EDIT_MESSAGE };
  const trucker = { data: target.truckerId ? { type: 'party', id: target.truckerId } : null };
  if (target.shipmentId) {
    const { status, json } = await call(
      connection,
      budgets,
      'PATCH',
      `shipments/${encodeURIComponent(target.shipmentId)}`,
      { data: { type: 'shipment', attributes: {}, relationships: { trucker } } },
    );
    if (status !== 200) return failure(status, json);
    const containers = (json as { data?: { relationships?: { containers?: { data?: [] } } } }).data
      ?.relationships?.containers?.data;
    return { ok: true, assigned: containers?.length ?? 0 };
  }
  const ids = [...new Set(target.containerIds ?? [])];
  if (ids.length === 0) return { ok: false, message: 'Choose at least one container.' };
  let assigned = 0;
  for (let i = 0; i < ids.length; i += ASSIGN_BATCH) {
    const batch = ids.slice(i, i + ASSIGN_BATCH);
    const { status, json } = await call(connection, budgets, 'PATCH', 'containers', {
      data: batch.map((id) => ({ type: 'container', id, relationships: { trucker } })),
    });
    if (status !== 200) {
      const outcome = failure(status, json);
      return assigned > 0
        ? { ok: false, message: `${outcome.message} (${assigned} were assigned before this.)` }
        : outcome;
    }
    assigned += batch.length;
  }
  return { ok: true, assigned };
}
