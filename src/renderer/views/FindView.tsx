import { useEffect, useState } from 'react';
import { quayside } from '../bridge';
import { describeFailure } from '../hooks/use-bridge';
import { navigate } from '../lib/navigation';
import { showBoardSearch } from './ContainersView';

/**
 * Where a find link lands (`#/find/<identifier>`): asks main what the identifier names and
 * moves on to that container, that shipment, or the board filtered by it.
 */
export function FindView({ query }: { query: string }) {
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    quayside.findRecord({ q: query }).then(
      (target) => {
        if (!current) return;
        if (target.kind === 'container') navigate('containers', target.id);
        else if (target.kind === 'shipment') navigate('shipments', target.id);
        else {
          showBoardSearch(target.search);
          navigate('containers');
        }
      },
      (failure: unknown) => current && setError(describeFailure(failure)),
    );
    return () => {
      current = false;
    };
  }, [query]);
  return (
    <section aria-label="Find">
      <p role={error ? 'alert' : 'status'}>{error ?? `Finding ${query}…`}</p>
    </section>
  );
}
