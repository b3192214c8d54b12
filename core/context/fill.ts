/**
 * Filling a budget file by file (DESIGN.md "Rules from the seeds"): protected parts are kept
 * whole; then, part by part in priority order and file by file within a part (in the part's
 * own, stable order), every file that fits whole is kept. Of the files that did not fit, the
 * first (the highest priority one: the file that crosses the line) gets the room that is left,
 * cut at a line with a marker, unless less than MIN_CUT_TOKENS is left. A part without files
 * (a diff, extra context) is one unit, cut the same way. What is left out is reported.
 *
 * Counting: each unit's cost is bounded cheaply first (Measure.bounds); the exact count is
 * taken only when the bounds cannot decide, so a large pack under a small budget tokenizes
 * little more than what it keeps.
 */
import { MARKERS, MIN_CUT_TOKENS } from '../files/constants.ts';
import type { Measure } from './measure.ts';
import { joinSections, readSections, truncatedSection, type FileSectionText, type PartSections } from './part-sections.ts';

export interface Part {
  key: string;
  content: string;
  /** The files the part holds, in its order (lets the budget keep it file by file). */
  files?: readonly string[];
}

export interface PartOutcome {
  key: string;
  /** The part as it goes into the text; null when nothing of it was kept. */
  content: string | null;
  /** Files of the part left out whole. */
  leftOut: string[];
  /** Files cut at the budget line (for a part without files: its key). */
  truncated: string[];
}

export interface BudgetResult {
  text: string;
  /** Every part, in input order: what of it was kept. */
  outcomes: PartOutcome[];
  /** Keys of parts left out whole, lowest priority first. */
  pruned: string[];
  warnings: string[];
}

export interface FillRules {
  /** Keys in the order they get room, highest priority first; protected keys are kept first anyway. */
  keepOrder: string[];
  protectedKeys: ReadonlySet<string>;
  /** Added to the text when the protected parts alone are over the budget. */
  overMarker?: string;
}

const JOIN = '\n\n';
const SEPARATOR = '\n';

interface Unit {
  part: number;
  /** The section's index in its part; null for a part without sections. */
  section: number | null;
  text: string;
  /** What a cut keeps the head of: the file's content, or the part's text; null: cannot be cut. */
  cuttable: string | null;
  name: string;
  exact?: number;
}

interface Slot {
  part: Part;
  sections: PartSections | null;
  kept: Set<number>;
  whole: boolean;
  cut: { section: number | null; text: string } | null;
}

/** Running total of what is kept: exact where counted, bounded where not. */
class Tally {
  exact = 0;
  private low = 0;
  private high = 0;
  private pending: Unit[] = [];
  private readonly measure: Measure;
  constructor(measure: Measure) {
    this.measure = measure;
  }
  exactOf(unit: Unit): number {
    return (unit.exact ??= this.measure.cost(unit.text));
  }
  /** Counts the kept units not counted yet: `exact` is then the whole kept cost. */
  settle(): number {
    for (const unit of this.pending) this.exact += this.exactOf(unit);
    this.pending = [];
    this.low = this.high = 0;
    return this.exact;
  }
  /** Whether the unit (plus exactly known `extra`) fits under `limit`; keeps it if so. */
  tryKeep(unit: Unit, extra: number, limit: number): boolean {
    if (unit.exact === undefined) {
      const b = this.measure.bounds(unit.text);
      if (this.exact + this.high + extra + b.high <= limit) {
        this.pending.push(unit);
        this.low += b.low;
        this.high += b.high;
        this.exact += extra;
        return true;
      }
      if (this.exact + this.low + extra + b.low > limit) return false;
    }
    if (this.settle() + extra + this.exactOf(unit) > limit) return false;
    this.exact += extra + this.exactOf(unit);
    return true;
  }
}

function wholeUnit(slot: Slot, index: number): Unit {
  return { part: index, section: null, text: slot.part.content, cuttable: slot.part.content, name: slot.part.key };
}

function sectionUnits(sections: PartSections, index: number): Unit[] {
  return sections.sections.map((s: FileSectionText, i) => ({ part: index, section: i, text: s.text, cuttable: s.content, name: s.path }));
}

const lineCount = (text: string) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

/** The longest head of `content` (at a line end when it has one) whose rendering fits `room`. */
function cutToFit(content: string, render: (head: string) => string, room: number, measure: Measure): string | null {
  let lo = 0;
  let hi = content.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure.cost(render(content.slice(0, mid))) <= room) lo = mid;
    else hi = mid - 1;
  }
  let end = lo;
  const lineEnd = content.lastIndexOf('\n', end - 1);
  if (lineEnd > 0) end = lineEnd;
  else if (end > 0 && /[\uD800-\uDBFF]/.test(content[end - 1]!)) end--; // never half a surrogate pair
  return end > 0 ? content.slice(0, end) : null;
}

function renderCut(slot: Slot, unit: Unit, head: string): string {
  const marker = MARKERS.truncated(unit.name, lineCount(head), lineCount(unit.cuttable ?? ''));
  if (unit.section === null || !slot.sections) return `${head}\n${marker}`;
  return truncatedSection(slot.sections.style, unit.name, head, marker);
}

function partText(slot: Slot): string | null {
  if (slot.whole) return slot.part.content;
  if (!slot.sections) return slot.cut ? slot.cut.text : null;
  const kept = slot.sections.sections.flatMap((s, i) => (slot.kept.has(i) ? [s] : slot.cut?.section === i ? [{ text: slot.cut.text }] : []));
  return kept.length ? joinSections(slot.sections, kept) : null;
}

function outcomeOf(slot: Slot): PartOutcome {
  const content = partText(slot);
  const files = slot.sections ? slot.sections.sections.map((s) => s.path) : [...(slot.part.files ?? [])];
  const cutName = slot.cut ? (slot.cut.section === null ? (slot.sections ? null : slot.part.key) : files[slot.cut.section]!) : null;
  const leftOut = slot.whole ? [] : files.filter((_, i) => !slot.kept.has(i) && (slot.sections ? slot.cut?.section !== i : !slot.cut));
  return { key: slot.part.key, content, leftOut, truncated: cutName ? [cutName] : [] };
}

function result(slots: Slot[], keepOrder: number[], warnings: string[], marker?: string): BudgetResult {
  const outcomes = slots.map(outcomeOf);
  const texts = outcomes.flatMap((o) => (o.content === null ? [] : [o.content]));
  const pruned = [...keepOrder].reverse().filter((i) => outcomes[i]!.content === null).map((i) => slots[i]!.part.key);
  return { text: [...texts, ...(marker ? [marker] : [])].join(JOIN), outcomes, pruned, warnings };
}

export function fillBudget(parts: Part[], budgetTokens: number, measure: Measure, rules: FillRules): BudgetResult {
  const isProtected = (p: Part) => rules.protectedKeys.has(p.key);
  const slots: Slot[] = parts.map((part) => ({
    part,
    sections: null,
    kept: new Set<number>(),
    whole: false,
    cut: null,
  }));
  const rank = (key: string) => (rules.keepOrder.includes(key) ? rules.keepOrder.indexOf(key) : rules.keepOrder.length);
  const order = parts.map((_, i) => i).filter((i) => !isProtected(parts[i]!));
  order.sort((a, b) => rank(parts[a]!.key) - rank(parts[b]!.key) || a - b);
  if (budgetTokens === Number.POSITIVE_INFINITY) {
    for (const slot of slots) slot.whole = true;
    return result(slots, order, []);
  }
  const limit = measure.limit(budgetTokens);
  const tally = new Tally(measure);
  let started = 0;
  const joinCost = measure.cost(JOIN);
  const separatorCost = measure.cost(SEPARATOR);

  // Protected parts: always kept whole.
  for (const slot of slots.filter((s) => isProtected(s.part))) {
    tally.exact += (started++ ? joinCost : 0) + measure.cost(slot.part.content);
    slot.whole = true;
  }
  if (tally.exact > limit) {
    const keys = slots.filter((s) => s.whole).map((s) => s.part.key).join(', ') || 'nothing';
    const used = slots.filter((s) => s.whole).reduce((n, s) => n + measure.tokens(s.part.content), 0);
    return result(slots, order, [`Context exceeds budget even with required content only: ${keys} take ~${used} tokens, budget ${budgetTokens}`], rules.overMarker);
  }

  const skipped: Unit[] = [];
  /** Exact cost a unit brings besides its own text: the join to the part before, a part's head and tail, the separator. */
  const extraFor = (slot: Slot, partStarted: boolean) => {
    if (partStarted) return slot.sections ? separatorCost : 0;
    const frame = slot.sections ? measure.cost(slot.sections.head) + measure.cost(slot.sections.tail) : 0;
    return (started ? joinCost : 0) + frame;
  };
  for (const index of order) {
    const slot = slots[index]!;
    // A part that fits whole is kept whole; only one that does not is read as its files.
    const whole = wholeUnit(slot, index);
    if (tally.tryKeep(whole, extraFor(slot, false), limit)) {
      started++;
      slot.whole = true;
      continue;
    }
    slot.sections = slot.part.files?.length ? readSections(slot.part.content, slot.part.files) : null;
    if (!slot.sections) {
      skipped.push(whole);
      continue;
    }
    for (const unit of sectionUnits(slot.sections, index)) {
      const partStarted = slot.kept.size > 0;
      if (tally.tryKeep(unit, extraFor(slot, partStarted), limit)) {
        if (!partStarted) started++;
        slot.kept.add(unit.section!);
      } else skipped.push(unit);
    }
  }

  // The highest-priority unit that did not fit gets what is left, cut at the line.
  const first = skipped.find((u) => u.cuttable !== null);
  if (first) {
    const slot = slots[first.part]!;
    const room = limit - tally.settle() - extraFor(slot, slot.kept.size > 0);
    if (room >= measure.limit(MIN_CUT_TOKENS)) {
      const head = cutToFit(first.cuttable!, (h) => renderCut(slot, first, h), room, measure);
      if (head !== null) slot.cut = { section: first.section, text: renderCut(slot, first, head) };
    }
  }
  return result(slots, order, []);
}
