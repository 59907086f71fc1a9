/** The truckers owner (writes; the board reads them with its rows): the service's trucker list. */
import type { TruckerRecord } from '../../shared/desktop';
import { CacheOwner } from './connection';

export class TruckersCache extends CacheOwner {
  /** Replaces the cached truckers with the service's complete list, in one transaction. */
  replaceTruckers(truckers: readonly TruckerRecord[]): void {
    this.db
      .transaction(() => {
        this.db.exec('DELETE FROM truckers');
        const insert = this.stmt(
          `INSERT INTO truckers (id, company_name, scac, contacts, json) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT(id) DO NOTHING`,
        );
        for (const t of truckers) {
          insert.run(t.id, t.companyName, t.scac, JSON.stringify(t.contacts), JSON.stringify(t));
        }
      })
      .immediate();
  }
}
