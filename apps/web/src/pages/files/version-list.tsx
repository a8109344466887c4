import { useEffect, useState } from 'react';
import { downloadFile, filesApi, type FileInfo, type FileVersion } from '../../api/files.js';
import { useI18n } from '../../i18n/index.js';
import { authorLabel, errorText, formatBytes, formatDate } from '../../format.js';
import { Icon } from '../../components/icons.js';

/**
 * Versions of a file, newest first, each downloadable; editors restore an earlier one (saved as a new version).
 *
 * @example
 * <VersionList project={pid} file={file} canEdit onRestored={reload} onError={fail} />
 */
export function VersionList(props: { project: string; file: FileInfo; canEdit: boolean; onRestored: () => void; onError: (m: string) => void }) {
  const { t, lang } = useI18n();
  const { project, file } = props;
  const [versions, setVersions] = useState<FileVersion[] | null>(null);

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
  return (
    <section className="versions">
      <h3>{t('preview.versions')}</h3>
      <table>
        <tbody>
          {versions.map((v) => (
            <tr key={v.version} data-version={v.version}>
              <td>
                v{v.version}
                {v.current && <small> ({t('preview.current')})</small>}
              </td>
              <td>{formatBytes(v.size)}</td>
              <td>{formatDate(v.modified, lang)}</td>
              <td>{authorLabel(t, v.authorDetail, v.author)}</td>
              <td>
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
