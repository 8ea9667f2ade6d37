import { describe, expect, it } from 'vitest';

import { scrollToShowResult, VIEW_MARGIN_PX } from './result-in-view.js';

describe('scrollToShowResult (issue 41 item 1: the result in view on a phone)', () => {
  it('does not scroll when the status line and the whole pane are on screen', () => {
    expect(scrollToShowResult({ top: 400, bottom: 430 }, { top: 500, bottom: 800 }, 844)).toBe(0);
  });

  it('scrolls just far enough for the pane to end VIEW_MARGIN_PX above the screen edge, the status line staying on screen', () => {
    // Measured at 375 × 667 before the fix: status at 453, pane 627…989.
    const delta = scrollToShowResult({ top: 453, bottom: 533 }, { top: 627, bottom: 989 }, 667);
    expect(delta).toBe(989 + VIEW_MARGIN_PX - 667);
    expect(453 - delta).toBeGreaterThanOrEqual(VIEW_MARGIN_PX);
  });

  it('scrolls up to the status line when the page was scrolled past it', () => {
    expect(scrollToShowResult({ top: -200, bottom: -170 }, { top: -100, bottom: 200 }, 568)).toBe(-200 - VIEW_MARGIN_PX);
  });

  it('shows the whole pane rather than the status line when both do not fit', () => {
    expect(scrollToShowResult({ top: 300, bottom: 330 }, { top: 500, bottom: 900 }, 568)).toBe(900 + VIEW_MARGIN_PX - 568);
  });

  it('puts a pane taller than the screen at the top', () => {
    expect(scrollToShowResult({ top: 300, bottom: 330 }, { top: 500, bottom: 1200 }, 568)).toBe(500 - VIEW_MARGIN_PX);
  });
});
