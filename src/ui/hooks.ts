/** Small React hooks shared by the playground's components. */

import { startTransition, useEffect, useState } from 'react';

/** How long a replaced object URL stays valid. */
export const REVOKE_DELAY_MS = 5_000;

/**
 * An object URL for `data`, made again whenever `key` changes (a re-trace with an identical SVG is
 * still a new result) and revoked (after REVOKE_DELAY_MS) when replaced or on unmount. Returns the URL with the key it was
 * made for, so the two never disagree during the render before the effect runs.
 */
export function useObjectUrl<K>(data: BlobPart | null, type: string, key: K): { url: string; key: K } | null {
  const [view, setView] = useState<{ url: string; key: K } | null>(null);
  useEffect(() => {
    if (data === null) {
      setView(null);
      return undefined;
    }
    const url = URL.createObjectURL(new Blob([data], { type }));
    setView({ url, key });
    // Revoked a little later, not at once: until the re-render with the new URL is committed, an
    // <img> mounted in between (or a reader fetching the result) may still use the old one, and a
    // revoked blob URL fails to load (net::ERR_FILE_NOT_FOUND).
    return () => {
      setTimeout(() => URL.revokeObjectURL(url), REVOKE_DELAY_MS);
    };
  }, [data, type, key]);
  return view;
}

/** The longest a mount step waits for a frame (a hidden tab runs no animation frames). */
const STEP_FRAME_WAIT_MS = 100;

/**
 * The page mounts in `steps` steps, one per painted frame: returns how many are shown (1 at
 * first, then one more after each frame until `steps`). Each step's content gets its own style,
 * layout and paint, instead of the whole page's in one main-thread task (measured 70–190 ms).
 */
export function useMountSteps(steps: number): number {
  const [shown, setShown] = useState(1);
  useEffect(() => {
    if (shown >= steps) return undefined;
    let timer = 0;
    let done = false;
    // After the frame that paints this step, in a task of its own (a timer queued from the
    // frame's callback runs after that frame's layout and paint).
    const next = () => {
      if (done) return;
      done = true;
      // A transition, so React renders the step in slices of a few milliseconds.
      timer = window.setTimeout(() => startTransition(() => setShown((n) => Math.min(steps, n + 1))), 0);
    };
    const frame = requestAnimationFrame(next);
    const fallback = window.setTimeout(next, STEP_FRAME_WAIT_MS);
    return () => {
      done = true;
      cancelAnimationFrame(frame);
      clearTimeout(fallback);
      clearTimeout(timer);
    };
  }, [shown, steps]);
  return shown;
}
