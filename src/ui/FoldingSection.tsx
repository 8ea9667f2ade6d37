/**
 * A panel whose heading folds it: the heading is a button (the disclosure pattern — the title
 * stays a heading, the button says whether the panel is open) and the panel's content follows it.
 * In: the panel's class, title and content. Out: a <section> labelled by its heading.
 *
 * It starts open on a wide screen and folded on a narrow one (narrow.ts): on a phone the service,
 * snippet and batch panels filled half the page under the result (issue 29), and a visitor who
 * only traces needs none of them. Folded content stays mounted (hidden), so what was typed into
 * a panel survives folding it.
 */

import { useId, useState, type HTMLAttributes, type ReactNode } from 'react';

import { isNarrowScreen } from './narrow.js';

export interface FoldingSectionProps extends Omit<HTMLAttributes<HTMLElement>, 'title'> {
  readonly className: string;
  readonly title: ReactNode;
  readonly children: ReactNode;
}

export function FoldingSection({ className, title, children, ...rest }: FoldingSectionProps) {
  const titleId = useId();
  const bodyId = useId();
  // Read once: a panel the user opened or folded stays so when the window is resized.
  const [open, setOpen] = useState(() => !isNarrowScreen());
  return (
    <section {...rest} className={`${className} folding-section`} aria-labelledby={titleId} data-open={open}>
      <h2 className="fold-heading">
        <button type="button" id={titleId} className="fold-toggle" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
          {title}
        </button>
      </h2>
      {/* display: contents while open (styles.css): the panel's own layout applies to its children. */}
      <div id={bodyId} className="fold-body" hidden={!open}>
        {children}
      </div>
    </section>
  );
}
