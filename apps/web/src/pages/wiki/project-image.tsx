import { useEffect, useState } from 'react';
import { filesApi } from '../../api/files.js';

/** Picture types a page may show; anything else stays its alt text. */
const PICTURE = /^image\/(png|jpeg|gif|webp)$/;

/**
 * A picture from the project's files inside a wiki page (`![alt](path)`): fetched with the reader's token, so a
 * page shows only pictures its reader may open, and typed here, so a file named .png that is not one is never
 * rendered as anything else. Until it arrives, or when it cannot be shown, the alt text stands in its place.
 *
 * @example
 * <ProjectImage project="default" path="docs/flow.png" alt="Flow" />
 */
export function ProjectImage({ project, path, alt }: { project: string; path: string; alt: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let made: string | null = null;
    let cancelled = false;
    setUrl(null);
    (async () => {
      const info = await filesApi.previewInfo(project, path);
      if (info.kind !== 'image' || !PICTURE.test(info.file.type)) return null;
      const bytes = await (await filesApi.preview(project, path)).arrayBuffer();
      return URL.createObjectURL(new Blob([bytes], { type: info.file.type }));
    })().then(
      (u) => {
        made = u;
        if (cancelled && u) URL.revokeObjectURL(u);
        else if (!cancelled) setUrl(u);
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [project, path]);
  return url ? <img className="wiki-image" src={url} alt={alt} /> : <span className="md-image-skipped">{alt}</span>;
}
