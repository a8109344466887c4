import { useLayoutEffect, useRef, useState } from 'react';
import { useI18n } from '../../i18n/index.js';
import { Icon } from '../../components/icons.js';

/**
 * The "Upload" and "Upload folder" buttons, each with the hidden file input behind it (a folder pick keeps the
 * files' relative paths). The input is emptied after each pick, so the same files can be picked again (a retry).
 *
 * @example
 * <UploadButtons disabled={!canEdit} onPick={(list) => uploads.addFiles(pid, folder, list)} />
 */
export function UploadButtons({ disabled, onPick }: { disabled: boolean; onPick: (list: FileList | null) => void }) {
  const { t } = useI18n();
  const input = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  // Folder picking is switched on through the element's property: Preact would set a `webkitdirectory` prop as
  // that property too, where the empty string (an attribute's "present") means off.
  useLayoutEffect(() => {
    if (folderInput.current) folderInput.current.webkitdirectory = true;
  }, []);
  const picked = (e: React.ChangeEvent<HTMLInputElement>) => {
    onPick(e.target.files);
    e.target.value = '';
  };
  return (
    <>
      <input ref={input} type="file" multiple hidden onChange={picked} data-testid="upload-input" />
      <button disabled={disabled} onClick={() => input.current?.click()}>
        <Icon name="upload" /> {t('files.upload')}
      </button>
      <input ref={folderInput} type="file" hidden onChange={picked} data-testid="upload-folder-input" />
      <button disabled={disabled} onClick={() => folderInput.current?.click()}>
        <Icon name="upload" /> {t('files.uploadFolder')}
      </button>
    </>
  );
}

/**
 * Makes an element take files and folders dragged from the desktop: marked while they are over it (only when
 * `enabled`), and the drop handed over inside the drop handler itself (the browser empties it afterwards).
 *
 * @example
 * const drop = useUploadDropZone(canEdit, (items) => void uploads.addDrop(pid, folder, items));
 * <section className={drop.dragging ? 'dragging' : ''} {...drop.handlers} />
 */
export function useUploadDropZone(enabled: boolean, onDrop: (items: DataTransferItemList) => void) {
  const [dragging, setDragging] = useState(false);
  const handlers: Pick<React.HTMLAttributes<HTMLElement>, 'onDragOver' | 'onDragLeave' | 'onDrop'> = {
    onDragOver: (e) => {
      if (enabled && e.dataTransfer.types.includes('Files')) {
        e.preventDefault();
        setDragging(true);
      }
    },
    onDragLeave: () => setDragging(false),
    onDrop: (e) => {
      // A folder inside the zone (a row, the tree, the breadcrumb) that took the drop has said so.
      const taken = e.defaultPrevented;
      e.preventDefault();
      setDragging(false);
      if (enabled && !taken) onDrop(e.dataTransfer.items);
    },
  };
  return { dragging, handlers };
}
