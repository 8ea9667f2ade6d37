/**
 * The stats line of the preview result. In: the trace's stats and wall time. Out: one
 * "Key: value" item per figure (the e2e checks read them back in that form), the profile with why
 * the engine chose it in brackets after it; "Gradients: N" when
 * shapes were filled with a gradient (tracelab.gradients); the pen strokes, their widths and
 * the pen-down and pen-up lengths (tracelab.strokes); after a fast retrace, which step it
 * re-ran from.
 */

import type { StrokeStats } from '../engine/types.js';
import type { VectorizeStats } from '../worker/protocol.js';
import { formatNumber } from './format.js';

const PROFILE_NAMES: Record<VectorizeStats['profile'], string> = { pixel: 'pixel art', flat: 'flat art', photo: 'photo', lineart: 'line art' };

/** "Strokes: 12", "Widths: 2.9–3.1 px", "Pen down: 1,204 px", "Pen up: 310 px". */
function strokeItems(s: StrokeStats): [string, string][] {
  const widths = s.widthMinPx === s.widthMaxPx ? `${s.widthMinPx} px` : `${s.widthMinPx}–${s.widthMaxPx} px`;
  return [
    ['Strokes', String(s.count)],
    ['Widths', widths],
    ['Pen down', `${formatNumber(Math.round(s.penDownPx))} px`],
    ['Pen up', `${formatNumber(Math.round(s.penUpPx))} px`],
  ];
}

export function StatsLine({ stats, ms }: { stats: VectorizeStats | null; ms: number | null }) {
  if (!stats) return <p className="stats" />;
  const items: [string, string][] = [
    ['Profile', PROFILE_NAMES[stats.profile]],
    // Why: "Profile: photo (… grain: photo)" — the reason sits next to the profile it explains.
    ...(stats.profileReason ? [['Why', stats.profileReason] as [string, string]] : []),
    // Counts stay plain digits: the e2e checks read them back with Number().
    ['Colours', String(stats.colors)],
    ['Shapes', String(stats.shapes)],
    // Only when there are any: with the extension off (the API's way) the line stays as it was.
    ...(stats.gradients ? [['Gradients', String(stats.gradients)] as [string, string]] : []),
    // Pen strokes (tracelab.strokes): how many, how wide, and the pen's travel drawn and lifted.
    ...(stats.strokes ? strokeItems(stats.strokes) : []),
    // Curve nodes: what the outline view shows and what makes a file heavy to edit or cut.
    ['Nodes', String(stats.nodes)],
    ['Size', `${formatNumber(stats.bytes)} bytes`],
    ['Time', `${ms === null ? '?' : formatNumber(Math.round(ms))} ms`],
  ];
  // Fast retrace: the steps before this one came from the last trace of the same image.
  if (stats.rerunFrom) items.push(['Re-ran', stats.rerunFrom === 'write' ? 'the file only' : `from ${stats.rerunFrom}`]);
  return (
    <p className="stats" data-testid="stats">
      {items.map(([k, v]) => (
        <span key={k} className="stat">
          {k}: <strong>{v}</strong>
        </span>
      ))}
    </p>
  );
}
