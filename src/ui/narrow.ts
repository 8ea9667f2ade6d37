/**
 * The page's one-column layout (styles.css, `@media (max-width: 900px)`): phones and narrow
 * windows. There the result comes right under the input, and what a visitor who only traces does
 * not need (option groups, URL and base64 fields, the service, snippet and batch panels) comes
 * after it, folded. In: nothing. Out: the media query and whether it matches now.
 */

export const NARROW_QUERY = '(max-width: 900px)';

/** Whether the one-column layout applies now (false where matchMedia does not exist). */
export function isNarrowScreen(): boolean {
  return typeof matchMedia === 'function' && matchMedia(NARROW_QUERY).matches;
}
