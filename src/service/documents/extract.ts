/**
 * From page texts to a document type and located values. Pure functions: the numbers a
 * document names (containers with their ISO 6346 check digit verified, bill of lading and
 * booking numbers), the carrier, vessel, voyage, ETA and last free day, each with its page and
 * a confidence. A container number with a wrong check digit is reported in `rejected`, never
 * among the values.
 */
import { checkDigit } from '../../shared/iso6346';
import type { ShippingLinesTable } from '../store/schema';
import type { DocumentType } from './types';

export interface Located<T = string> {
  value: T;
  page: number;
  confidence: number;
}

export interface ExtractedFields {
  container_numbers: Located[];
  bill_of_lading_number: Located | null;
  booking_number: Located | null;
  carrier_scac: Located | null;
  vessel_name: Located | null;
  voyage_number: Located | null;
  eta: Located | null;
  last_free_day: Located | null;
}

export interface Extraction {
  document_type: DocumentType;
  /** Why the type was chosen (the phrases that decided it). */
  classification_notes: string;
  method: 'text' | 'ocr';
  page_count: number;
  fields: ExtractedFields;
  rejected: { value: string; page: number; reason: string }[];
}

const PHRASES: Record<Exclude<DocumentType, 'other'>, RegExp[]> = {
  arrival_notice: [/arrival notice/i, /notice of arrival/i, /last free day/i, /freight release/i],
  bill_of_lading: [/bill of lading/i, /shipped on board/i, /\bB\/L\b/, /notify party/i],
  booking_confirmation: [/booking confirmation/i, /booking (?:no|number)/i, /cut-?off/i],
  delivery_order: [/delivery order/i, /release to/i, /deliver to/i],
};

/** Type by the phrases found; the title phrase (first one) counts triple. */
export function classify(text: string): { type: DocumentType; notes: string } {
  let best: { type: DocumentType; score: number; found: string[] } = {
    type: 'other',
    score: 0,
    found: [],
  };
  for (const [type, patterns] of Object.entries(PHRASES) as [DocumentType, RegExp[]][]) {
    const found = patterns.filter((p) => p.test(text));
    const score = found.reduce((s, p) => s + (p === patterns[0] ? 3 : 1), 0);
    if (score > best.score) best = { type, score, found: found.map((p) => p.source) };
  }
  return best.score >= 2
    ? { type: best.type, notes: `Matched: ${best.found.join(', ')}` }
    : { type: 'other', notes: 'No shipping document phrases found' };
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A date in a common document form -> YYYY-MM-DD, or null. */
export function parseDate(raw: string): string | null {
  const pad = (n: number) => String(n).padStart(2, '0');
  const valid = (y: number, m: number, d: number) => {
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCMonth() === m - 1 && date.getUTCDate() === d
      ? `${y}-${pad(m)}-${pad(d)}`
      : null;
  };
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(raw);
  if (m) return valid(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[-\s]([A-Za-z]{3})[A-Za-z]*[-\s,]+(\d{4})/.exec(raw);
  if (m) {
    const month = MONTHS.indexOf(m[2]!.toLowerCase()) + 1;
    return month ? valid(Number(m[3]), month, Number(m[1])) : null;
  }
  m = /^([A-Za-z]{3})[A-Za-z]*\.?\s+(\d{1,2}),?\s+(\d{4})/.exec(raw);
  if (m) {
    const month = MONTHS.indexOf(m[1]!.toLowerCase()) + 1;
    return month ? valid(Number(m[3]), month, Number(m[2])) : null;
  }
  return null;
}

const DATE_TEXT = String.raw`(\d{4}-\d{2}-\d{2}|\d{1,2}[-\s][A-Za-z]{3,9}[-\s,]+\d{4}|[A-Za-z]{3,9}\.?\s+\d{1,2},?\s+\d{4})`;
/** A reference number: letters and digits, at least one digit (so a label word never matches). */
const NUMBER_TEXT = String.raw`((?=[A-Z]*\d)[A-Z0-9]{6,20})\b`;
const LABEL_END = String.raw`\s*(?:no\.?|number|#)?\s*[:.]?\s*`;

interface Labelled {
  name: keyof Omit<ExtractedFields, 'container_numbers' | 'carrier_scac'>;
  pattern: RegExp;
  date?: boolean;
}

const LABELLED: Labelled[] = [
  {
    name: 'bill_of_lading_number',
    pattern: new RegExp(String.raw`(?:bill of lading|B\/L|BL|MBL)${LABEL_END}${NUMBER_TEXT}`, 'i'),
  },
  {
    name: 'booking_number',
    pattern: new RegExp(String.raw`booking${LABEL_END}${NUMBER_TEXT}`, 'i'),
  },
  {
    name: 'vessel_name',
    pattern: /vessel(?:\s*name)?\s*[:.]\s*([A-Z][A-Z .'-]{2,40}?)(?=\s*(?:\/|voy|\n|\s{2,}|$))/i,
  },
  {
    name: 'voyage_number',
    pattern: /voy(?:age)?(?:\s*(?:no\.?|number))?\s*[:.]\s*([A-Z0-9-]{2,12})\b/i,
  },
  {
    name: 'eta',
    pattern: new RegExp(
      String.raw`(?:ETA|estimated (?:time of )?arrival)\s*[:.]?\s*${DATE_TEXT}`,
      'i',
    ),
    date: true,
  },
  {
    name: 'last_free_day',
    pattern: new RegExp(String.raw`(?:last free day|LFD)\s*[:.]?\s*${DATE_TEXT}`, 'i'),
    date: true,
  },
];

const CONTAINER_TEXT = /\b([A-Z]{3}[UJZ])[\s-]?(\d{6})[\s-]?(\d)\b/g;
const SCAC_TEXT = /\bSCAC\s*(?:code)?\s*[:.]?\s*([A-Z]{4})\b/;

/** Confidence of values read by OCR is scaled by the engine's own word confidence. */
export function extractFields(
  pages: string[],
  lines: ShippingLinesTable[],
  options: { method: 'text' | 'ocr'; pageConfidence?: number[] } = { method: 'text' },
): Extraction {
  const fields: ExtractedFields = {
    container_numbers: [],
    bill_of_lading_number: null,
    booking_number: null,
    carrier_scac: null,
    vessel_name: null,
    voyage_number: null,
    eta: null,
    last_free_day: null,
  };
  const rejected: Extraction['rejected'] = [];
  const seen = new Set<string>();
  const scale = (page: number, c: number) =>
    Math.round(c * (options.pageConfidence?.[page - 1] ?? 1) * 100) / 100;

  pages.forEach((text, index) => {
    const page = index + 1;
    for (const m of text.matchAll(CONTAINER_TEXT)) {
      const number = `${m[1]}${m[2]}${m[3]}`;
      if (seen.has(number)) continue;
      seen.add(number);
      const expected = checkDigit(number.slice(0, 10));
      if (expected === Number(m[3])) {
        fields.container_numbers.push({ value: number, page, confidence: scale(page, 0.99) });
      } else {
        rejected.push({
          value: number,
          page,
          reason: `ISO 6346 check digit is ${expected}, not ${m[3]}`,
        });
      }
    }
    for (const { name, pattern, date } of LABELLED) {
      if (fields[name]) continue;
      const m = pattern.exec(text);
      if (!m) continue;
      const raw = m[1]!.trim();
      const value = date ? parseDate(raw) : raw.toUpperCase();
      if (value) fields[name] = { value, page, confidence: scale(page, 0.9) };
    }
    if (!fields.carrier_scac) {
      const m = SCAC_TEXT.exec(text);
      if (m && lines.some((l) => l.scac === m[1])) {
        fields.carrier_scac = { value: m[1]!, page, confidence: scale(page, 0.95) };
      }
    }
  });

  fields.carrier_scac ??= scacFromPrefixes(fields, lines);
  const { type, notes } = classify(pages.join('\n'));
  return {
    document_type: type,
    classification_notes: notes,
    method: options.method,
    page_count: pages.length,
    fields,
    rejected,
  };
}

/** The line whose bill of lading, booking or container prefix the numbers carry. */
function scacFromPrefixes(fields: ExtractedFields, lines: ShippingLinesTable[]): Located | null {
  const list = (text: string) => JSON.parse(text) as string[];
  const tries: [Located | null | undefined, keyof ShippingLinesTable, number][] = [
    [fields.bill_of_lading_number, 'bill_of_lading_prefixes', 0.85],
    [fields.booking_number, 'booking_prefixes', 0.8],
    [fields.container_numbers[0], 'container_prefixes', 0.7],
  ];
  for (const [found, column, confidence] of tries) {
    if (!found) continue;
    const line = lines.find((l) =>
      list(l[column] as string).some((prefix) => prefix && found.value.startsWith(prefix)),
    );
    if (line) {
      return {
        value: line.scac,
        page: found.page,
        confidence: Math.round(confidence * found.confidence * 100) / 100,
      };
    }
  }
  return null;
}
