/**
 * Keeps webhook signing secrets, custom header values and carrier subscription secrets sealed in
 * the database (see security/secret-box.ts) without every query site knowing: a Kysely plugin seals the
 * `secret` and `headers` values written to `webhooks` and `line_subscriptions` by inserts and
 * updates, and opens sealed values of
 * result columns named `secret` or `headers` when they are read. Plaintext rows written by
 * older versions are sealed once on start by `sealPlaintextWebhookSecrets`.
 */
import {
  sql,
  type ColumnNode,
  type ColumnUpdateNode,
  type InsertQueryNode,
  type Kysely,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type UpdateQueryNode,
} from 'kysely';
import type { Database } from './schema';
import { storeKindOf } from './dialect';
import { SECRET_KEY_ENV } from '../../shared/service-env';
import { SEALED_PREFIX, SECRET_KEY_FILE, SecretBox } from '../security/secret-box';

/** Tables whose `secret`/`headers` values are sealed: webhooks and carrier subscriptions. */
const SEALED_TABLES = new Set(['webhooks', 'line_subscriptions']);
const SEALED_COLUMNS = new Set(['secret', 'headers']);

const identifierName = (node: OperationNode | undefined): string | undefined => {
  const n = node as
    | { kind: string; table?: { identifier?: { name?: string } }; column?: { name?: string } }
    | undefined;
  if (n?.kind === 'TableNode') return n.table?.identifier?.name;
  if (n?.kind === 'ColumnNode') return n.column?.name;
  if (n?.kind === 'AliasNode')
    return identifierName((n as unknown as { node: OperationNode }).node);
  return undefined;
};

export class SealedColumns implements KyselyPlugin {
  constructor(private readonly box: SecretBox) {}

  private sealValue(value: unknown): unknown {
    return typeof value === 'string' && !SecretBox.isSealed(value) ? this.box.seal(value) : value;
  }

  private sealOperand(node: OperationNode): OperationNode {
    if (node.kind !== 'ValueNode') return node;
    const value = (node as unknown as { value: unknown }).value;
    return { ...node, value: this.sealValue(value) } as OperationNode;
  }

  private sealInsert(node: InsertQueryNode): InsertQueryNode {
    const sealedAt = (node.columns ?? [])
      .map((c: ColumnNode, i) => (SEALED_COLUMNS.has(identifierName(c) ?? '') ? i : -1))
      .filter((i) => i >= 0);
    if (sealedAt.length === 0 || node.values?.kind !== 'ValuesNode') return node;
    const valuesNode = node.values as unknown as { values: OperationNode[] };
    const rows = valuesNode.values.map((row) => {
      const list = row as unknown as { kind: string; values: unknown[] };
      const values = list.values.map((v, i) => {
        if (!sealedAt.includes(i)) return v;
        return list.kind === 'PrimitiveValueListNode'
          ? this.sealValue(v)
          : this.sealOperand(v as OperationNode);
      });
      return { ...row, values };
    });
    return { ...node, values: { ...node.values, values: rows } as OperationNode };
  }

  private sealUpdate(node: UpdateQueryNode): UpdateQueryNode {
    if (!node.updates) return node;
    const updates = node.updates.map((u: ColumnUpdateNode) =>
      SEALED_COLUMNS.has(identifierName(u.column) ?? '')
        ? { ...u, value: this.sealOperand(u.value) }
        : u,
    );
    return { ...node, updates };
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node;
    if (node.kind === 'InsertQueryNode' && SEALED_TABLES.has(identifierName(node.into) ?? '')) {
      return this.sealInsert(node);
    }
    if (node.kind === 'UpdateQueryNode' && SEALED_TABLES.has(identifierName(node.table) ?? '')) {
      return this.sealUpdate(node);
    }
    return node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const rows = args.result.rows;
    if (!rows.some((row) => [...SEALED_COLUMNS].some((c) => typeof row[c] === 'string'))) {
      return args.result;
    }
    return {
      ...args.result,
      rows: rows.map((row) => {
        const out: UnknownRow = { ...row };
        for (const column of SEALED_COLUMNS) {
          const value = row[column];
          if (typeof value === 'string' && SecretBox.isSealed(value)) {
            out[column] = this.box.open(value);
          }
        }
        return out;
      }),
    };
  }
}

/**
 * Refuses to start with a key that cannot open the secrets already sealed in this store (the key
 * file was lost or `QUAYSIDE_SECRET_KEY` changed): otherwise every later read of a webhook would
 * fail. One sealed value is enough to tell.
 */
export async function assertKeyOpensSealedSecrets(
  db: Kysely<Database>,
  box: SecretBox,
): Promise<void> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.ref('secret').as('raw_secret'))
    .where('secret', 'like', `${SEALED_PREFIX}%`)
    .limit(1)
    .executeTakeFirst();
  if (!row) return;
  try {
    box.open(row.raw_secret);
  } catch {
    throw new Error(
      `The secret key does not open the webhook secrets stored in this data folder. Start with ` +
        `the key they were sealed with (${SECRET_KEY_ENV}, or the ${SECRET_KEY_FILE} file from ` +
        `a backup of this folder).`,
    );
  }
}

/**
 * Seals webhook secrets and header values still stored in plaintext (rows from before
 * encryption at rest). `db` must carry the SealedColumns plugin, which seals the rewritten values.
 */
export async function sealPlaintextWebhookSecrets(db: Kysely<Database>): Promise<number> {
  // Raw values: sealed ones start with the box prefix; the plugin opens them when read.
  const rows = await db
    .selectFrom('webhooks')
    .select((eb) => ['id', eb.ref('secret').as('raw_secret'), eb.ref('headers').as('raw_headers')])
    .where((eb) =>
      eb.or([
        eb('secret', 'not like', `${SEALED_PREFIX}%`),
        eb.and([eb('headers', 'is not', null), eb('headers', 'not like', `${SEALED_PREFIX}%`)]),
      ]),
    )
    .execute();
  if (rows.length === 0) return 0;
  if (storeKindOf(db) === 'postgres') {
    // PostgreSQL has no secure_delete; old row versions go at the next VACUUM.
    await db.transaction().execute(async (trx) => {
      for (const row of rows) {
        await trx
          .updateTable('webhooks')
          .set({ secret: row.raw_secret, headers: row.raw_headers })
          .where('id', '=', row.id)
          .execute();
      }
    });
    return rows.length;
  }
  // Overwrite the freed plaintext in the file and move it out of the WAL, not just unlink it.
  await sql`PRAGMA secure_delete = ON`.execute(db);
  try {
    for (const row of rows) {
      await db
        .updateTable('webhooks')
        .set({ secret: row.raw_secret, headers: row.raw_headers })
        .where('id', '=', row.id)
        .execute();
    }
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
  } finally {
    await sql`PRAGMA secure_delete = OFF`.execute(db);
  }
  return rows.length;
}
