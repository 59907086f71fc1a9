/**
 * The container rules, in one place: which statuses exist and which mean the box has left the
 * terminal, which last free day acts first where the box is, which holds block pickup, whether a
 * box is ready (and why not), what its fees add up to, the alert kinds with their thresholds, and
 * how its event history reads. The service, the desktop cache, the alert rules and the renderer
 * all read these; none keeps its own copy. One file per rule; this index is the door.
 * No Node imports: the renderer bundles these files.
 */
export * from './statuses';
export * from './last-free-day';
export * from './location';
export * from './holds';
export * from './readiness';
export * from './fees';
export * from './alert-kinds';
export * from './event-history';
