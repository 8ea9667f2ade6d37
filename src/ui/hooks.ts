/** Small React hooks shared by the playground's components. */

import { useEffect, useState } from 'react';

/**
 * An object URL for `data`, made again whenever `key` changes (a re-trace with an identical SVG is
 * still a new result) and revoked when replaced or on unmount. Returns the URL with the key it was
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
    return () => URL.revokeObjectURL(url);
  }, [data, type, key]);
  return view;
}

