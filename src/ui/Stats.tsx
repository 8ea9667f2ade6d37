/** The stats line of the preview result. */

import type { VectorizeStats } from '../worker/protocol.js';

const PROFILE_NAMES: Record<VectorizeStats['profile'], string> = { pixel: 'pixel art', flat: 'flat art', photo: 'photo' };

export function StatsLine({ stats, ms }: { stats: VectorizeStats | null; ms: number | null }) {
  if (!stats) return <p className="stats" />;
  const items: [string, string][] = [
    ['Profile', PROFILE_NAMES[stats.profile]],
    ['Colours', String(stats.colors)],
    ['Shapes', String(stats.shapes)],
    ['Size', `${stats.bytes.toLocaleString('en-US')} bytes`],
    ['Time', `${ms === null ? '?' : Math.round(ms).toLocaleString('en-US')} ms`],
  ];
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

