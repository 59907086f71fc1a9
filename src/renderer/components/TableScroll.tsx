import type { ReactNode } from 'react';

/**
 * A table's scroll box. It scrolls when the table is wider or taller than the page leaves room
 * for (a long reference or status in the demo data is enough), and a keyboard user must then be
 * able to scroll it without a link inside: so it takes focus, as a named region (axe:
 * scrollable-region-focusable).
 */
export function TableScroll(props: { label: string; className?: string; children: ReactNode }) {
  return (
    <div
      className={props.className ? `table-wrap ${props.className}` : 'table-wrap'}
      role="region"
      aria-label={`${props.label} table`}
      tabIndex={0}
    >
      {props.children}
    </div>
  );
}
