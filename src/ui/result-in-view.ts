/**
 * Brings a new input's result into view on a phone (issue 41 item 1). In: the store (inputs begun,
 * the job's status) and the page's layout; out: window scrolls, nothing else.
 *
 * In the one-column layout (narrow.ts) the status line and the result pane come after the header,
 * the drop zone and the sample gallery, which fill a small phone's first screen: at 375 × 667,
 * 360 × 640 and 320 × 658 at most 4 % of the result pane was on it. When a new input begins (a
 * file, a drop, a paste, a sample, a URL) the page scrolls just far enough for the status line and
 * the whole result pane to be on screen, and checks again when that input's trace ends (the status
 * line grows its Download buttons), unless the visitor scrolled meanwhile. Wide screens keep the
 * result beside the input and are never scrolled.
 */

import { isNarrowScreen } from './narrow.js';
import type { TracelabStore } from './store.js';

/** A box's top and bottom edges in window (viewport) coordinates, CSS px. */
export interface VerticalSpan {
  readonly top: number;
  readonly bottom: number;
}

/** Room kept between the screen's edges and what is brought into view, CSS px. */
export const VIEW_MARGIN_PX = 8;

/** A scroll this close to the one made here is still the page's own, not the visitor's (CSS px). */
const OWN_SCROLL_SLACK_PX = 2;

/**
 * How far to scroll down (negative: up), in CSS px, for the status line and the result pane to be
 * on a screen `screenHeightPx` high; 0 when they already are. The least scroll that shows both,
 * with VIEW_MARGIN_PX to spare; when both do not fit, the whole pane (or, taller than the screen,
 * its top) wins over the status line.
 */
export function scrollToShowResult(status: VerticalSpan, pane: VerticalSpan, screenHeightPx: number): number {
  if (status.top >= 0 && pane.top >= 0 && pane.bottom <= screenHeightPx) return 0;
  const paneBottomIn = pane.bottom + VIEW_MARGIN_PX - screenHeightPx;
  if (pane.bottom - status.top + 2 * VIEW_MARGIN_PX <= screenHeightPx) {
    return paneBottomIn > 0 ? paneBottomIn : status.top - VIEW_MARGIN_PX;
  }
  if (pane.bottom - pane.top + 2 * VIEW_MARGIN_PX <= screenHeightPx && paneBottomIn > 0) return paneBottomIn;
  return pane.top - VIEW_MARGIN_PX;
}

/** The status line's and the result pane's spans now, or null when either is not on the page. */
function measure(doc: Document): { status: VerticalSpan; pane: VerticalSpan } | null {
  const status = doc.querySelector('.result-bar [role="status"]');
  const pane = doc.querySelector('[data-result-pane]');
  if (!status || !pane) return null;
  return { status: status.getBoundingClientRect(), pane: pane.getBoundingClientRect() };
}

/** Scrolls the window so the status line and the result pane are on screen; returns the scroll position after. */
function bringIntoView(win: Window): number {
  const spans = measure(win.document);
  const delta = spans ? scrollToShowResult(spans.status, spans.pane, win.innerHeight) : 0;
  if (delta !== 0) win.scrollBy({ top: delta, behavior: 'instant' });
  return win.scrollY;
}

/**
 * Watches the store for new inputs on a narrow screen (see the module header). Returns the
 * function that stops watching.
 */
export function keepResultInView(store: TracelabStore, win: Window = window): () => void {
  /** The input being brought into view, and where the page was put for it (null: no input pending). */
  let pending: { inputId: number; scrollY: number | null } | null = null;
  let frame = 0;
  const later = (work: () => void) => {
    win.cancelAnimationFrame(frame);
    // After React's commit of the store change, before the frame is painted.
    frame = win.requestAnimationFrame(work);
  };
  const unsubscribe = store.subscribe((state, prev) => {
    if (state.inputId !== prev.inputId) {
      if (!isNarrowScreen()) return;
      const inputId = state.inputId;
      pending = { inputId, scrollY: null };
      later(() => {
        if (pending?.inputId === inputId) pending = { inputId, scrollY: bringIntoView(win) };
      });
      return;
    }
    const ended = state.job.status === 'done' || state.job.status === 'error';
    if (!pending || pending.inputId !== state.inputId || !ended || state.job.status === prev.job.status) return;
    const placed = pending.scrollY;
    pending = null;
    // The visitor scrolled since: leave the page where they put it.
    if (placed !== null && Math.abs(win.scrollY - placed) > OWN_SCROLL_SLACK_PX) return;
    later(() => void bringIntoView(win));
  });
  return () => {
    unsubscribe();
    win.cancelAnimationFrame(frame);
  };
}
