/**
 * Copy text to the clipboard from a click. The async Clipboard API needs a secure context and
 * permission; when it is missing or refused, a temporary selected <textarea> with the legacy copy
 * command still works in most browsers. Resolves true when either way reported success.
 */

export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the legacy way
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  const focused = document.activeElement as HTMLElement | null;
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  focused?.focus(); // keep keyboard users where they were
  return ok;
}
