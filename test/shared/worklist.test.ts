import { describe, expect, it } from 'vitest';
import { lfdDeadlines, type LfdDeadlines } from '../../src/shared/container';
import {
  buildWorklist,
  worklistCounts,
  worklistEntry,
  type WorklistRow,
} from '../../src/shared/worklist';
import { countOf } from '../../src/shared/words';

const LA = 'America/Los_Angeles';
const NY = 'America/New_York';
const CHI = 'America/Chicago';
/** 09:00 in Los Angeles on Monday 23 Nov 2026 (17:00Z), 12:00 in New York. */
const NOW = Date.parse('2026-11-23T17:00:00Z');

let serial = 0;
function row(
  facts: Partial<WorklistRow> & { lfd?: LfdDeadlines; zone?: string } = {},
): WorklistRow {
  const { lfd, zone = LA, ...rest } = facts;
  serial += 1;
  return {
    id: `c${serial}`,
    number: `MSCU${String(serial).padStart(7, '0')}`,
    status: 'available',
    ready: true,
    holdNames: [],
    holdsCount: 0,
    deadlines: lfdDeadlines(lfd ?? {}, { port: zone, destination: CHI }),
    location: { kind: 'terminal', name: 'Pier 400' },
    podTimezone: zone,
    destinationTimezone: CHI,
    pickupAppointmentAt: null,
    etaAt: '2026-11-20T10:00:00Z',
    ataAt: '2026-11-20T12:00:00Z',
    dischargedAt: '2026-11-21T02:00:00Z',
    vessel: 'MSC Anna',
    ...rest,
  };
}

describe('the worklist says why a box is listed and what to do next', () => {
  it('moves a ready box with its LFD today, read in the terminal calendar day', () => {
    const entry = worklistEntry(row({ lfd: { terminal: '2026-11-23' } }), NOW);
    expect(entry).toMatchObject({
      section: 'move_today',
      reason: 'Ready, Terminal LFD today',
      nextAction: 'Book a slot for today and dispatch a truck',
    });
    // At 23:30 Sunday in Los Angeles the same LFD is tomorrow there: it needs an appointment.
    const sundayNight = Date.parse('2026-11-23T07:30:00Z');
    expect(worklistEntry(row({ lfd: { terminal: '2026-11-23' } }), sundayNight)).toMatchObject({
      section: 'needs_appointment',
      reason: 'Ready, no appointment; Terminal LFD tomorrow',
    });
  });

  it('moves a box with an appointment today and names its time', () => {
    const entry = worklistEntry(
      row({ lfd: { line: '2026-11-25' }, pickupAppointmentAt: '2026-11-23T21:30:00Z' }),
      NOW,
    );
    expect(entry?.section).toBe('move_today');
    expect(entry?.reason).toBe('Appointment 23 Nov 13:30 PST');
    expect(entry?.nextAction).toBe('Dispatch the truck for the appointment');
  });

  it('asks for an appointment when a ready box has none, or one after its last free day', () => {
    expect(worklistEntry(row({ lfd: { terminal: '2026-11-26' } }), NOW)).toMatchObject({
      section: 'needs_appointment',
      reason: 'Ready, no appointment; Terminal LFD in 3 days',
      nextAction: 'Book a pickup appointment',
    });
    const late = worklistEntry(
      row({ lfd: { terminal: '2026-11-24' }, pickupAppointmentAt: '2026-11-25T18:00:00Z' }),
      NOW,
    );
    expect(late?.section).toBe('needs_appointment');
    expect(late?.reason).toBe('Appointment is after the Terminal LFD (Tue 24 Nov PST)');
    expect(late?.nextAction).toBe('Rebook the appointment before the last free day');
  });

  it('leaves out a ready box booked in time for a later day', () => {
    const planned = row({
      lfd: { terminal: '2026-11-27' },
      pickupAppointmentAt: '2026-11-25T18:00:00Z',
    });
    expect(worklistEntry(planned, NOW)).toBeNull();
  });

  it('flags a held box whose LFD is soon, with the hold and who clears it', () => {
    const held = row({
      ready: false,
      holdsCount: 1,
      holdNames: ['customs'],
      lfd: { terminal: '2026-11-24' },
    });
    expect(worklistEntry(held, NOW)).toMatchObject({
      section: 'blocked_lfd_soon',
      reason: 'Customs hold, Terminal LFD tomorrow',
      nextAction: 'Ask the customs broker for the release',
    });
    const twoHolds = row({
      ready: false,
      holdsCount: 2,
      holdNames: ['freight', 'tmf'],
      lfd: { line: '2026-11-23' },
    });
    expect(worklistEntry(twoHolds, NOW)?.reason).toBe(
      'Freight and Traffic mitigation fee holds, Line LFD today',
    );
    // A hold with a week of free time left is not this morning's problem.
    const later = row({
      ready: false,
      holdsCount: 1,
      holdNames: ['usda'],
      lfd: { line: '2026-11-30' },
    });
    expect(worklistEntry(later, NOW)).toBeNull();
  });

  it('lists a box whose free time is over as overdue and accruing', () => {
    const overdue = worklistEntry(row({ lfd: { terminal: '2026-11-22' } }), NOW);
    expect(overdue).toMatchObject({
      section: 'overdue_accruing',
      reason: 'Terminal LFD passed yesterday, charges accruing',
      nextAction: 'Book the first pickup appointment',
    });
    const heldOverdue = row({
      ready: false,
      holdsCount: 1,
      holdNames: ['vacis'],
      lfd: { line: '2026-11-20' },
    });
    expect(worklistEntry(heldOverdue, NOW)).toMatchObject({
      section: 'overdue_accruing',
      reason: 'Line LFD passed 3 days ago, charges accruing',
      nextAction: 'Ask the broker when the exam is scheduled, then pick up',
    });
  });

  it('lists what arrives within three days at the terminal, and not later', () => {
    const soon = row({
      status: 'on_ship',
      ready: false,
      ataAt: null,
      dischargedAt: null,
      etaAt: '2026-11-25T15:00:00Z',
    });
    expect(worklistEntry(soon, NOW)).toMatchObject({
      section: 'arriving_next',
      reason: 'MSC Anna arrives 25 Nov 07:00 PST',
      nextAction: 'Watch for discharge and availability',
    });
    expect(worklistEntry({ ...soon, etaAt: '2026-11-28T15:00:00Z' }, NOW)).toBeNull();
    expect(worklistEntry({ ...soon, etaAt: '2026-11-22T15:00:00Z' }, NOW)?.reason).toBe(
      'MSC Anna due 22 Nov 07:00 PST, not arrived yet',
    );
    const discharged = row({ ready: false, lfd: { terminal: '2026-11-27' } });
    expect(worklistEntry(discharged, NOW)?.reason).toBe('Discharged, not available yet');
  });

  it('follows a rail move to its ramp and reads the day there', () => {
    const onRail = row({
      status: 'on_rail',
      ready: false,
      location: { kind: 'rail', name: 'Chicago (BNSF Logistics Park)' },
    });
    expect(worklistEntry(onRail, NOW)).toMatchObject({
      section: 'arriving_next',
      reason: 'On rail to Chicago (BNSF Logistics Park)',
    });
  });

  it('never lists completed or picked-up boxes', () => {
    expect(
      worklistEntry(row({ status: 'empty_returned', lfd: { line: '2026-11-22' } }), NOW),
    ).toBeNull();
    expect(
      worklistEntry(row({ status: 'picked_up', lfd: { line: '2026-11-22' } }), NOW),
    ).toBeNull();
  });
});

describe('a box at a rail ramp', () => {
  it("is read by the ramp's rail LFD and its appointment in the ramp's zone", () => {
    const atRamp = row({
      location: { kind: 'ramp', name: 'St. Louis ramp' },
      lfd: { line: '2026-11-20', rail: '2026-11-18' },
      pickupAppointmentAt: '2026-11-24T05:55:00Z',
    });
    expect(worklistEntry(atRamp, NOW)).toMatchObject({
      section: 'overdue_accruing',
      reason: 'Rail LFD passed 5 days ago, charges accruing',
      // 05:55Z is 23:55 in St. Louis (CST), 21:55 at the Los Angeles port: the ramp's time.
      nextAction: 'Dispatch the truck for 23 Nov 23:55 CST',
    });
  });
});

describe('the worklist is ordered by urgency, places as sub-headings within each section', () => {
  it('puts overdue boxes first, the most money first, then today, each place in its own day', () => {
    const la1 = row({ lfd: { terminal: '2026-11-24' } });
    const la2 = row({ lfd: { terminal: '2026-11-23' } });
    const laOverdue = row({ lfd: { terminal: '2026-11-21' } });
    const nyOverdue = row({
      zone: NY,
      location: { kind: 'terminal', name: 'Maher Terminals' },
      lfd: { line: '2026-11-22' },
    });
    const ny = row({
      zone: NY,
      location: { kind: 'terminal', name: 'Maher Terminals' },
      lfd: { line: '2026-11-23' },
    });
    const done = row({ status: 'empty_returned' });
    // The $1,200 box is overdue by one day less than the LA one, but costs more: it leads.
    const money = (r: WorklistRow) => (r === nyOverdue ? 1200 : r === laOverdue ? 300 : 0);
    const sections = buildWorklist([la1, done, ny, la2, laOverdue, nyOverdue], NOW, money);
    expect(
      sections.map((g) => [
        g.section,
        g.places.map((p) => [p.name, p.zone, p.today, p.items.map((i) => i.row.id)]),
      ]),
    ).toEqual([
      [
        'overdue_accruing',
        [
          ['Maher Terminals', NY, '2026-11-23', [nyOverdue.id]],
          ['Pier 400', LA, '2026-11-23', [laOverdue.id]],
        ],
      ],
      [
        'move_today',
        // Both LFDs are today; New York's day ends three hours before Los Angeles's.
        [
          ['Maher Terminals', NY, '2026-11-23', [ny.id]],
          ['Pier 400', LA, '2026-11-23', [la2.id]],
        ],
      ],
      ['needs_appointment', [['Pier 400', LA, '2026-11-23', [la1.id]]]],
    ]);
    expect(worklistCounts(sections)).toEqual({
      move_today: 2,
      needs_appointment: 1,
      blocked_lfd_soon: 0,
      overdue_accruing: 2,
      arriving_next: 0,
    });
  });
});

describe('counted nouns', () => {
  it('says "1 container" and "2 containers"', () => {
    expect(countOf(1, 'container')).toBe('1 container');
    expect(countOf(0, 'container')).toBe('0 containers');
    expect(countOf(2350, 'box', 'boxes')).toBe('2,350 boxes');
  });
});

describe('a box due for pickup without a trucker', () => {
  const ask = { askForTrucker: true };

  it('says "assign a trucker" first when the account keeps truckers', () => {
    const entry = worklistEntry(
      row({ lfd: { terminal: '2026-11-23' }, truckerId: null }),
      NOW,
      ask,
    );
    expect(entry).toMatchObject({
      section: 'move_today',
      reason: 'Ready, Terminal LFD today; assign a trucker',
      nextAction: 'Assign a trucker, then book a slot for today and dispatch a truck',
    });
    const held = worklistEntry(
      row({ lfd: { terminal: '2026-11-24' }, holdNames: ['customs'], holdsCount: 1, ready: false }),
      NOW,
      ask,
    );
    expect(held?.reason).toMatch(/; assign a trucker$/);
  });

  it('says nothing of truckers once one is assigned, for boxes far off, or without truckers', () => {
    const due = { lfd: { terminal: '2026-11-23' } };
    expect(worklistEntry(row({ ...due, truckerId: 'party-1' }), NOW, ask)?.reason).toBe(
      'Ready, Terminal LFD today',
    );
    expect(worklistEntry(row(due), NOW)?.reason).toBe('Ready, Terminal LFD today');
    const arriving = worklistEntry(
      row({ ataAt: null, dischargedAt: null, ready: false, etaAt: '2026-11-24T10:00:00Z' }),
      NOW,
      ask,
    );
    expect(arriving?.section).toBe('arriving_next');
    expect(arriving?.reason).not.toContain('trucker');
  });
});
