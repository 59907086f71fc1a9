/**
 * JSON.parse for the sync's large pages without one long block of the main thread.
 *
 * A page of 100 containers with their events is ~1.8 MB of JSON; parsing it in one call holds
 * the event loop for 5–15 ms, which alone breaks the 16 ms lag budget once a GC lands on top.
 * Handing the text to a worker does not help: bringing the parsed objects back (structured clone)
 * costs the main thread about three times the parse. So the text is parsed here, in pieces: one
 * pass finds the elements of each array member of the top-level object (`data`, `included`),
 * the elements are parsed in batches with the native parser, and the event loop gets a turn
 * whenever a few milliseconds have passed.
 *
 * That pass walks the text a character at a time in JavaScript, which costs about as much as the
 * native parse itself. Inside an array it is mostly skipped: the next batch is cut at the first
 * `}},{` past the batch size (where one resource object ends and the next begins in compact
 * JSON:API text), and the batch's own parse proves the cut. If `[batch]` parses, the batch began
 * between two elements and is a complete run of elements, so the comma after it lies between two
 * elements too. A cut that does not parse (inside a string, or deeper in an element) sends the
 * rest of that array through the character pass. Everything else (the object's other members, its
 * syntax as a whole) goes through `JSON.parse` of the text with those arrays emptied, so the
 * result and the errors are JSON.parse's: malformed text throws a SyntaxError.
 */
import { nextTurn } from '../turns';

/** Bodies shorter than this are parsed in one call (well under a millisecond). */
const SLICE_FROM_CHARS = 128 * 1024;
/** Elements are parsed in batches of about this much text. */
const BATCH_CHARS = 32 * 1024;
/** Where compact JSON:API text ends one resource object and begins the next. */
const LIKELY_CUT = '}},{';
/** Work between two turns of the event loop. */
const TURN_MS = 4;

const QUOTE = 34; // "
const BACKSLASH = 92;
const OPEN_BRACE = 123; // {
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91; // [
const CLOSE_BRACKET = 93;
const COMMA = 44;

/** The index just past the string whose opening quote is at `start`. */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) throw new SyntaxError('Unterminated string in JSON');
    let backslashes = 0;
    for (let i = quote - 1; text.charCodeAt(i) === BACKSLASH; i--) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** Same result as `JSON.parse(text)`, with turns of the event loop while parsing large text. */
export async function parseJsonSliced(text: string): Promise<unknown> {
  const first = text.search(/\S/);
  if (text.length < SLICE_FROM_CHARS || text.charCodeAt(first) !== OPEN_BRACE) {
    return JSON.parse(text);
  }
  // The body arrives in an I/O callback; the parse waits its turn like the sync's other slices.
  await nextTurn();
  let turnStarted = performance.now();
  const maybeYield = async () => {
    if (performance.now() - turnStarted < TURN_MS) return;
    await nextTurn();
    turnStarted = performance.now();
  };

  const skeleton: string[] = [];
  const arrays: { key: string; elements: unknown[] }[] = [];
  let copiedTo = 0;
  let depth = 0;
  let lastKeyStart = -1;
  let lastKeyEnd = -1;
  // The top-level member array being split: its elements so far and where its batch starts.
  let current: { key: string; elements: unknown[] } | null = null;
  let batchStart = 0;
  let batches = 0;
  let likelyCutsFrom = 0;

  const parseBatch = (end: number, last: boolean) => {
    const slice = text.slice(batchStart, end);
    // An empty last batch is an empty array, or after a cut "[a,]", which JSON refuses.
    if (last && slice.trim() === '') {
      if (batches === 0) return;
      throw new SyntaxError('Trailing comma in JSON array');
    }
    const parsed = JSON.parse(`[${slice}]`) as unknown[];
    for (const element of parsed) current!.elements.push(element);
    batches++;
  };

  /**
   * Parses batches cut at likely element boundaries, proven by their parse, from `batchStart`;
   * returns when no likely cut is left or one fails to parse. `batchStart` is then where the
   * character pass resumes, between two elements of the array.
   */
  const parseLikelyBatches = async () => {
    if (batchStart < likelyCutsFrom) return;
    for (;;) {
      const cut = text.indexOf(LIKELY_CUT, batchStart + BATCH_CHARS);
      if (cut < 0) {
        likelyCutsFrom = Infinity;
        return;
      }
      const comma = cut + 2;
      let parsed: unknown[];
      try {
        parsed = JSON.parse(`[${text.slice(batchStart, comma)}]`) as unknown[];
      } catch {
        // Not tried again before the character pass is past this cut: each stretch of text is
        // parsed in vain at most once.
        likelyCutsFrom = cut;
        return;
      }
      for (const element of parsed) current!.elements.push(element);
      batches++;
      batchStart = comma + 1;
      await maybeYield();
    }
  };

  for (let i = first; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (depth === 1) {
        lastKeyStart = i;
        lastKeyEnd = end;
      }
      i = end - 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (c === OPEN_BRACKET && depth === 1 && lastKeyStart >= 0) {
        current = { key: JSON.parse(text.slice(lastKeyStart, lastKeyEnd)) as string, elements: [] };
        skeleton.push(text.slice(copiedTo, i + 1));
        batchStart = i + 1;
        batches = 0;
        await parseLikelyBatches();
        // The pass resumes between two elements, inside the array.
        depth = 2;
        i = batchStart - 1;
        continue;
      }
      depth++;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (depth === 1 && current && c === CLOSE_BRACKET) {
        parseBatch(i, true);
        arrays.push(current);
        current = null;
        copiedTo = i;
        await maybeYield();
      }
    } else if (c === COMMA && depth === 2 && current && i - batchStart >= BATCH_CHARS) {
      parseBatch(i, false);
      batchStart = i + 1;
      await maybeYield();
      await parseLikelyBatches();
      i = batchStart - 1;
    }
  }
  if (current) throw new SyntaxError('Unterminated array in JSON');
  skeleton.push(text.slice(copiedTo));
  // The whole syntax outside the arrays' elements is checked here.
  const result = JSON.parse(skeleton.join('')) as Record<string, unknown>;
  for (const { key, elements } of arrays) {
    // defineProperty, not assignment: a "__proto__" member stays a plain member, as in JSON.parse.
    Object.defineProperty(result, key, {
      value: elements,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return result;
}
