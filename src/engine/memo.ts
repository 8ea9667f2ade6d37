/**
 * Stage results kept from one trace of a picture for the next trace of the same picture (the
 * playground's fast retrace, issue 14): a colour change re-runs from the palette on, a speckle
 * size from the regions on, a shape switch only the fit, a stacking change only the shapes.
 *
 * In: the source image (by identity of its pixel array, which the engine never writes into), a slot
 * name per stage and a key string naming every parameter the stage depends on, including the
 * keys of the stages it reads. Out: the value stored under that slot when the key matches.
 * Stored values are read, never written into, by later stages, so a trace that reuses them gives
 * the same bytes as a fresh one. One slot per stage keeps memory at one trace's intermediates.
 */
import type { RgbaImage } from './types.js';

/** One trace's access to the memo: reads and stores slots of its own picture only. */
export interface MemoView {
  /** The value stored under `slot` for `key`, or undefined. */
  get<T>(slot: string, key: string): T | undefined;
  /** Stores `value` under `slot` for `key` and returns it. */
  set<T>(slot: string, key: string, value: T): T;
}

export class TraceMemo {
  private source: RgbaImage | undefined;
  private readonly slots = new Map<string, { key: string; value: unknown }>();

  /**
   * `only`: the slots this memo stores (others are computed and handed back, not kept); every slot
   * when absent. A trace without a caller's memo keeps just what it reuses itself (the lattice look,
   * and resize and profile for the photo fallback), so its labels and outline are freed as soon as
   * the trace is done with them.
   */
  constructor(private readonly only?: readonly string[]) {}

  /**
   * Starts a trace of `image`: a different picture drops every slot. Traces may interleave in one
   * worker (an export beside the preview), so once another picture begins, this trace's view
   * neither reads nor stores.
   */
  begin(image: RgbaImage): MemoView {
    // The same array read as another size is another picture.
    const s = this.source;
    if (!s || s.data !== image.data || s.width !== image.width || s.height !== image.height) {
      this.slots.clear();
      this.source = { width: image.width, height: image.height, data: image.data };
    }
    const mine = this.source;
    const slots = this.slots;
    const current = (): boolean => this.source === mine;
    const only = this.only;
    return {
      get<T>(slot: string, key: string): T | undefined {
        const entry = current() ? slots.get(slot) : undefined;
        return entry && entry.key === key ? (entry.value as T) : undefined;
      },
      set<T>(slot: string, key: string, value: T): T {
        if (current() && (!only || only.includes(slot))) slots.set(slot, { key, value });
        return value;
      },
    };
  }
}
