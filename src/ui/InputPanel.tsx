/**
 * Where images come in: a file picker and drop zone (paste works anywhere on the page, see
 * App.tsx), and the sample.
 */

import { useId, useRef, useState, type ChangeEvent, type DragEvent } from 'react';

export function DropZone({ onFile }: { onFile: (file: File) => void }) {
  const inputId = useId();
  const [over, setOver] = useState(false);
  const depth = useRef(0);

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) onFile(file);
    event.target.value = ''; // choosing the same file again re-loads it
  };
  const hasFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');

  return (
    <div
      className={over ? 'dropzone over' : 'dropzone'}
      onDragEnter={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        depth.current++;
        setOver(true);
      }}
      onDragOver={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setOver(false);
      }}
      onDrop={(event) => {
        event.preventDefault();
        depth.current = 0;
        setOver(false);
        const file = event.dataTransfer.files[0];
        if (file) onFile(file);
      }}
    >
      <input
        id={inputId}
        className="visually-hidden"
        type="file"
        accept="image/png,image/jpeg,image/webp,image/gif,image/bmp,image/tiff,.png,.jpg,.jpeg,.webp,.gif,.bmp,.tif,.tiff"
        onChange={onChange}
      />
      <label htmlFor={inputId} className="dropzone-label">
        <span className="dropzone-title">Choose an image</span>
        <span className="dropzone-hint">
          or drop it here, or paste it (PNG, JPEG, WebP, GIF, BMP, TIFF)
        </span>
      </label>
    </div>
  );
}

