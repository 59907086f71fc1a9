/**
 * A stored container's binding last free day, by the one precedence rule in
 * src/shared/container/last-free-day.ts (line, then terminal, then rail).
 */
import { bindingLfd, type BindingLfd } from '../../shared/container';
import type { ContainersTable } from '../store/schema';

type LfdColumns = Partial<
  Pick<ContainersTable, 'pickup_lfd_line' | 'pickup_lfd_terminal' | 'pickup_lfd_rail'>
>;

export const containerLfd = (c: LfdColumns): BindingLfd =>
  bindingLfd({ line: c.pickup_lfd_line, terminal: c.pickup_lfd_terminal, rail: c.pickup_lfd_rail });
