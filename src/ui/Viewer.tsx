/**
 * The input and the traced result side by side. The SVG is only ever shown through
 * <img src="blob:…"> — never inserted into the DOM — so a hostile file cannot script the page.
 */

import { useEffect, useState } from 'react';

import { useObjectUrl } from './hooks.js';
import type { Source } from './store.js';

export function Compare({
  source,
  svg,
  resultId,
  width,
  height,
  busy,
}: {
  source: Source | null;
  svg: string | null;
  resultId: number | null;
  width: number | null;
  height: number | null;
  busy: boolean;
}) {
  const inputUrl =
    useObjectUrl(source ? (source.bytes as Uint8Array<ArrayBuffer>) : null, source?.type || 'application/octet-stream', source)
      ?.url ?? null;
  const svgView = useObjectUrl(svg, 'image/svg+xml', resultId);
  const svgUrl = svgView?.url ?? null;
  const [inputBroken, setInputBroken] = useState(false);
  const [pixelated, setPixelated] = useState(false);
  useEffect(() => {
    setInputBroken(false);
    setPixelated(false);
  }, [inputUrl]);

  const size = width !== null && height !== null ? `${width} × ${height} px` : '';
  return (
    <section className="compare" aria-label="Input and result side by side">
      <figure className="pane">
        <figcaption>
          Input{source ? ` — ${source.name} (${source.size.toLocaleString('en-US')} bytes)` : ''}
        </figcaption>
        <div className="viewport">
          {inputUrl && !inputBroken && (
            <img
              src={inputUrl}
              alt={`Input image ${source?.name ?? ''}`}
              className={pixelated ? 'pixelated' : undefined}
              onLoad={(event) => {
                const img = event.currentTarget;
                setPixelated(img.naturalWidth * 2 <= img.clientWidth);
              }}
              onError={() => setInputBroken(true)}
            />
          )}
          {inputUrl && inputBroken && <p className="placeholder">This browser cannot preview this file.</p>}
          {!inputUrl && <p className="placeholder">No image yet</p>}
        </div>
      </figure>
      <figure className="pane">
        <figcaption>Result (SVG){size ? ` — ${size}` : ''}</figcaption>
        <div className="viewport" aria-busy={busy}>
          {svgUrl ? (
            <img
              src={svgUrl}
              alt="Traced vector result"
              className={busy ? 'result stale' : 'result'}
              data-trace-id={svgView?.key ?? undefined}
            />
          ) : (
            <p className="placeholder">{busy ? 'Tracing…' : 'The traced SVG appears here'}</p>
          )}
        </div>
      </figure>
    </section>
  );
}
