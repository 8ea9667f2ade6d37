/** Small React hooks shared by the playground's components. */

import { useEffect, useState } from 'react';

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

