/** Downloads of the result. */

export function DownloadButton({ svg, sourceName }: { svg: string | null; sourceName: string | null }) {
  const download = () => {
    if (svg === null) return;
    const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = svgFileName(sourceName);
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <button type="button" onClick={download} disabled={svg === null}>
      Download SVG
    </button>
  );
}

export function svgFileName(sourceName: string | null): string {
  const base = (sourceName ?? 'traced').replace(/\.[^./\\]*$/, '') || 'traced';
  return `${base}.svg`;
}
