import { useEffect, useState } from 'react';
import { downloadFile, filesApi, type FileInfo, type FileVersion } from '../../api/files.js';
import { useI18n } from '../../i18n/index.js';
import { authorLabel, errorText, formatBytes, formatDate } from '../../format.js';
import { Icon } from '../../components/icons.js';

/**
 * Versions of a file, newest first, each downloadable and shown in the panel on "Show"; two of a text file ticked
 * are compared; editors restore an earlier one (saved as a new version).
 *
 * @example
 * <VersionList project={pid} file={file} canEdit canCompare onShow={show} onCompare={compare} onRestored={reload} onError={fail} />
 */
export function VersionList(props: {
  project: string;
  file: FileInfo;
  canEdit: boolean;
  /** Whether versions can be shown in the panel (the file has a preview). */
  canShow?: boolean;
  /** Whether two versions can be compared (a text file). */
  canCompare?: boolean;
  shown?: number | null;
  onShow?: (version: number) => void;
  onCompare?: (from: number, to: number) => void;
  onRestored: () => void;
  onError: (m: string) => void;
}) {
  const { t, lang } = useI18n();
  const { project, file } = props;
  const [versions, setVersions] = useState<FileVersion[] | null>(null);
  const [ticked, setTicked] = useState<number[]>([]);
  useEffect(() => setTicked([]), [file.path]);
  const tick = (v: number, on: boolean) => setTicked((now) => (on ? [...now.filter((x) => x !== v), v].slice(-2) : now.filter((x) => x !== v)));

  useEffect(() => {
    let gone = false;
    filesApi.versions(project, file.path).then(
      (v) => !gone && setVersions(v),
      (e) => props.onError(errorText(e, t)),
    );
    return () => {
      gone = true;
    };
  }, [project, file.path, file.version]);

  const restore = async (v: number) => {
    try {
      await filesApi.restore(project, file.path, v);
      props.onRestored();
    } catch (e) {
      props.onError(errorText(e, t));
    }
  };

  if (!versions) return null;
  const [a, b] = [...ticked].sort((x, y) => x - y);
  return (
    <section className="versions">
      <h3>{t('preview.versions')}</h3>
      {props.canCompare && versions.length > 1 && (
        <p className="row versions-compare">
          <small className="muted">{t('versions.tickTwo')}</small>
          <button type="button" disabled={a === undefined || b === undefined} onClick={() => props.onCompare?.(a!, b!)}>
            {t('versions.compare')}
          </button>
        </p>
      )}
      <table>
        <tbody>
          {versions.map((v) => (
            <tr key={v.version} data-version={v.version} className={props.shown === v.version ? 'selected' : undefined}>
              {props.canCompare && versions.length > 1 && (
                <td>
                  <input
                    type="checkbox"
                    aria-label={t('versions.tick', { v: v.version })}
                    checked={ticked.includes(v.version)}
                    onChange={(e) => tick(v.version, e.currentTarget.checked)}
                  />
                </td>
              )}
              <td>
                v{v.version}
                {v.current && <small> ({t('preview.current')})</small>}
              </td>
              <td>{formatBytes(v.size)}</td>
              <td>{formatDate(v.modified, lang)}</td>
              <td>{authorLabel(t, v.authorDetail, v.author)}</td>
              <td>
                {props.canShow && (
                  <button type="button" className="link" aria-label={t('versions.show', { v: v.version })} onClick={() => props.onShow?.(v.version)}>
                    {t('common.show')}
                  </button>
                )}
                <button
                  className="link"
                  title={t('files.download')}
                  onClick={() => downloadFile(project, file.path, file.name, v.version).catch((e) => props.onError(errorText(e, t)))}
                >
                  <Icon name="download" />
                </button>
                {!v.current && (
                  <button disabled={!props.canEdit} onClick={() => restore(v.version)}>
                    {t('preview.restore')}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
