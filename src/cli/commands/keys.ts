import { parseArgs } from 'node:util';
import { systemClock } from '../../shared/clock';
import { defaultServiceDataDir } from '../../service/data-dir';
import { FIRST_ACCOUNT_NAME } from '../../service';
import { openAccounts } from '../../service/store/open';
import type { CommandCode } from '../command';
import { DATABASE_OPTIONS, databaseOption } from '../database-option';

/**
 * Creates an API key for an account, working directly on the SQLite file (WAL mode), so it also
 * works while the service runs; the service looks keys up on every request.
 */
export const keysCommand: CommandCode = {
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        'data-dir': { type: 'string' },
        account: { type: 'string' },
        routing: { type: 'boolean', default: false },
        ...DATABASE_OPTIONS,
      },
      strict: true,
    });
    const dataDir = values['data-dir'] ?? defaultServiceDataDir();
    const opened = await openAccounts(dataDir, {
      postgres: databaseOption(values),
      clock: systemClock,
    });
    try {
      const { accounts } = opened;
      const account = values.account
        ? await accounts.ensure(values.account)
        : (await accounts.ensurePrimary(FIRST_ACCOUNT_NAME)).account;
      if (values.routing) await accounts.setRouting(account.id, true);
      const key = await accounts.createKey(account.id);
      console.log(
        `Account: ${account.name}${values.routing || account.routingEnabled ? ' (routing enabled)' : ''}`,
      );
      console.log(key);
      return 0;
    } finally {
      await opened.close();
    }
  },
};
