import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { statementCsv, statementFileName } from '../../src/shared/charges/export';
import { statementPdf } from '../../src/shared/charges/pdf';
import { chargesStatement } from '../../src/shared/charges/statement';
import { DEFAULT_COST_TABLES } from '../../src/shared/cost-clock';

const statement = chargesStatement({
  container: {
    number: 'MAEU1234565',
    current_status: 'available',
    pod_timezone: 'America/Los_Angeles',
    pod_discharged_at: '2026-12-01T14:00:00Z',
    import_deadlines: { pickup_lfd_terminal: '2026-12-01' },
    available_for_pickup: true,
    availability_known: true,
  },
  shipment: { bill_of_lading_number: 'MAEU240012345', shipping_line_scac: 'MAEU' },
  terminalName: 'Maher Terminals',
  events: [],
  holdHistory: [{ name: 'freight', from: '2026-12-02T16:00:00Z', to: '2026-12-04T22:00:00Z' }],
  tables: DEFAULT_COST_TABLES,
  now: Date.parse('2026-12-05T20:00:00Z'),
  invoice: { amount: 900, currency: 'USD', date: '2026-12-10' },
});

describe('D&D statement exports', () => {
  it('writes one CSV row per charged day, disputed days with reason and evidence', () => {
    const lines = statementCsv(statement).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'container,bill_of_lading,charge,billed_by,date,weekday,charged_day,tier_from_day,rate,amount,currency,disputed,dispute_reason,evidence,facts',
    );
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatch(
      /^MAEU1234565,MAEU240012345,demurrage,Maher Terminals,2026-12-02,Wed,1,1,160\.00,160\.00,USD,yes,Freight hold by the line,"?Freight hold placed 2 Dec 08:00 PST, released 4 Dec 14:00 PST"?,/,
    );
    expect(lines[4]).toContain('2026-12-05,Sat,4,4,260.00,260.00,USD,no,');
    expect(statementFileName(statement, 'csv')).toBe('charges-MAEU1234565-2026-12-05.csv');
  });

  it('writes a PDF with the days, the disputes and the invoice fields', async () => {
    const bytes = await statementPdf(statement);
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
    expect(text).toContain('Demurrage and detention statement: MAEU1234565');
    expect(text).toContain('Freight hold by the line 2–4 Dec');
    expect(text).toContain('Free time end: 1 Dec 2026');
    expect(text).toContain('Dispute by (invoice date + 30 days): 9 Jan 2027');
  });
});
