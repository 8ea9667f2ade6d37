/**
 * A table keyed by exact 24-bit RGB colour, in typed arrays: pixel art's exact palette counts its
 * colours per pixel and labels its pixels by exact colour, and a Map's get and set per pixel were
 * the palette stage's largest cost there.
 * In: colour keys (r << 16 | g << 8 | b, 0 – 2²⁴ − 1) with a number each. Out: the number of a key,
 * the keys held (in no particular order: callers sort them).
 * Method: open addressing with linear probing over a power-of-two slot count, a multiplicative
 * hash of the key, grown to twice the slots when half are taken. Built per call (no module state).
 */

/** Slots to start with: a sprite's palette fits without growing. */
const INITIAL_SLOTS = 1024;
/** No key is negative: an empty slot. */
const EMPTY = -1;

export class ColorTable {
  private keys: Int32Array;
  private values: Float64Array;
  private mask: number;
  private shift: number;
  /** Keys held. */
  size = 0;

  constructor(slots = INITIAL_SLOTS) {
    this.keys = new Int32Array(slots).fill(EMPTY);
    this.values = new Float64Array(slots);
    this.mask = slots - 1;
    this.shift = 32 - Math.log2(slots);
  }

  /** The number held for `key`, or `missing` when the key is not in the table. */
  get(key: number, missing: number): number {
    const keys = this.keys;
    for (let s = this.slotOf(key); ; s = (s + 1) & this.mask) {
      const k = keys[s]!;
      if (k === key) return this.values[s]!;
      if (k === EMPTY) return missing;
    }
  }

  /** Adds `amount` to the number held for `key` (a new key starts at 0). */
  add(key: number, amount: number): void {
    const s = this.slotFor(key);
    this.values[s]! += amount;
  }

  /** Sets the number held for `key`. */
  set(key: number, value: number): void {
    this.values[this.slotFor(key)] = value;
  }

  /** The keys held, as doubles (ready for a numeric sort). */
  keyList(): Float64Array {
    const out = new Float64Array(this.size);
    let n = 0;
    for (let s = 0; s < this.keys.length; s++) if (this.keys[s] !== EMPTY) out[n++] = this.keys[s]!;
    return out;
  }

  private slotOf(key: number): number {
    return Math.imul(key, 0x9e3779b1) >>> this.shift;
  }

  /** The slot of `key`, taken (value 0) when the key is new. */
  private slotFor(key: number): number {
    if (this.size * 2 >= this.keys.length) this.grow();
    const keys = this.keys;
    for (let s = this.slotOf(key); ; s = (s + 1) & this.mask) {
      const k = keys[s]!;
      if (k === key) return s;
      if (k === EMPTY) {
        keys[s] = key;
        this.size++;
        return s;
      }
    }
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldValues = this.values;
    const slots = oldKeys.length * 2;
    this.keys = new Int32Array(slots).fill(EMPTY);
    this.values = new Float64Array(slots);
    this.mask = slots - 1;
    this.shift = 32 - Math.log2(slots);
    this.size = 0;
    for (let s = 0; s < oldKeys.length; s++) if (oldKeys[s] !== EMPTY) this.set(oldKeys[s]!, oldValues[s]!);
  }
}
