import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/client.js';
import type { Project } from '../api/files.js';
import { volumesApi, type VolumeListing, type VolumeScope } from '../api/volumes.js';
import { errorText } from '../format.js';
import { useI18n, type T } from '../i18n/index.js';
import type { Session } from '../session.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { useFocusTrap } from './focus-trap.js';
import { MY_FILES } from '../project-choice.js';

/** How the picker names a volume in the UI language (the server's own name for a knowledge base or skill package). */
function labelOf(v: VolumeListing, t: T): string {
  const agent = v.agentName ?? v.xpertId ?? '';
  const name =
    v.catalog === 'xperts' ? t('volumes.agentFiles', { name: agent }) : v.catalog === 'user-xperts' ? t('volumes.privateAgentFiles', { name: agent }) : v.name;
  return v.agentDeleted ? `${name} ${t('volumes.agentDeleted')}` : name;
}

/**
 * Where the signed-in person works (R1): a project, their own files, or a volume of the current project they may
 * reach — its knowledge bases and skill packages, the agents' volumes they may read — listed by the server, which
 * never lists one they may not open. Editors of the project create a knowledge base or skill package here.
 *
 * @example
 * <VolumePicker session={session} home={project} onPick={pick} onCreated={enter} onDeleted={backToProject} />
 */
export function VolumePicker(props: {
  session: Session;
  home: Project | null;
  onPick: (id: string) => void;
  onCreated: (scope: VolumeScope) => void;
  onDeleted: () => void;
}) {
  const { t } = useI18n();
  const { session, home } = props;
  const [volumes, setVolumes] = useState<VolumeListing[]>([]);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    if (!home) return setVolumes([]);
    volumesApi.list(home.id).then(
      (vs) => live && setVolumes(vs.filter((v) => v.catalog !== 'users')),
      () => live && setVolumes([]),
    );
    return () => {
      live = false;
    };
  }, [home?.id, session.project.id]);

  const value = session.scope?.catalog === 'users' ? MY_FILES : session.project.id;
  const known = value === MY_FILES || session.projects.some((p) => p.id === value) || volumes.some((v) => v.volumeId === value);
  const groups: Array<[string, VolumeListing[]]> = [
    [t('volumes.knowledges'), volumes.filter((v) => v.catalog === 'knowledges')],
    [t('volumes.skills'), volumes.filter((v) => v.catalog === 'skills')],
    [t('volumes.agents'), volumes.filter((v) => v.catalog === 'xperts' || v.catalog === 'user-xperts')],
  ];
  const canCreate = home !== null && (home.role === 'admin' || home.role === 'editor');
  // The server decides (decision 0016); the button only shows where it would agree: a project admin in a knowledge
  // base or skill package, anyone who still reads the volume of a deleted agent.
  const current = volumes.find((v) => v.volumeId === session.project.id);
  const canDelete = !!current && (current.agentDeleted || ((current.catalog === 'knowledges' || current.catalog === 'skills') && home?.role === 'admin'));
  return (
    <span className="volume-picker">
      <select aria-label={t('nav.project')} value={value} onChange={(e) => props.onPick(e.target.value)}>
        <optgroup label={t('volumes.projects')}>
          {session.projects.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </optgroup>
        <option value={MY_FILES}>{t('nav.myFiles')}</option>
        {!known && <option value={value}>{session.project.name}</option>}
        {groups.map(
          ([label, vs]) =>
            vs.length > 0 && (
              <optgroup key={label} label={home ? `${label} · ${home.name}` : label}>
                {vs.map((v) => (
                  <option key={v.volumeId} value={v.volumeId}>
                    {labelOf(v, t)}
                  </option>
                ))}
              </optgroup>
            ),
        )}
      </select>
      {canCreate && (
        <button type="button" className="link" onClick={() => setCreating(true)}>
          {t('volumes.new')}
        </button>
      )}
      {canDelete && (
        <button type="button" className="link" onClick={() => setDeleting(true)}>
          {t('volumes.delete')}
        </button>
      )}
      {error && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
      {deleting && current && (
        <ConfirmDialog
          message={t('volumes.deleteConfirm', { name: labelOf(current, t) })}
          confirmLabel={t('volumes.delete')}
          onCancel={() => setDeleting(false)}
          onConfirm={() => {
            setDeleting(false);
            volumesApi.remove(current.volumeId).then(
              () => {
                // Gone from the picker in the same render that leaves it, not when the list is next fetched.
                setVolumes((vs) => vs.filter((v) => v.volumeId !== current.volumeId));
                props.onDeleted();
              },
              (e: unknown) => setError(errorText(e, t)),
            );
          }}
        />
      )}
      {creating && home && (
        <NewVolumeDialog
          project={home}
          onCancel={() => setCreating(false)}
          onCreated={(scope) => {
            setCreating(false);
            props.onCreated(scope);
          }}
        />
      )}
    </span>
  );
}

/** A new knowledge base or skill package in a project (editors); a name already in use opens that one. */
function NewVolumeDialog(props: { project: Project; onCreated: (scope: VolumeScope) => void; onCancel: () => void }) {
  const { t } = useI18n();
  const box = useRef<HTMLDivElement>(null);
  const [catalog, setCatalog] = useState<'knowledges' | 'skills'>('knowledges');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useFocusTrap(box, props.onCancel);
  return (
    <div className="modal-back">
      <div ref={box} className="modal volume-dialog" role="dialog" aria-modal="true" aria-label={t('volumes.newTitle', { project: props.project.name })}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!name.trim() || busy) return;
            setBusy(true);
            volumesApi.create(catalog, props.project.id, name.trim()).then(props.onCreated, (err: unknown) => {
              setBusy(false);
              setError(err instanceof ApiError && err.code === 'too_large' ? t('volumes.limitReached') : errorText(err, t));
            });
          }}
        >
          <h2>{t('volumes.newTitle', { project: props.project.name })}</h2>
          <fieldset>
            <legend>{t('volumes.kind')}</legend>
            <label>
              <input type="radio" name="catalog" checked={catalog === 'knowledges'} onChange={() => setCatalog('knowledges')} />
              {t('volumes.knowledge')}
            </label>
            <label>
              <input type="radio" name="catalog" checked={catalog === 'skills'} onChange={() => setCatalog('skills')} />
              {t('volumes.skill')}
            </label>
          </fieldset>
          <label>
            {t('volumes.name')}
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} required autoComplete="off" />
          </label>
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          <div className="modal-actions">
            <button type="submit" disabled={busy || !name.trim()}>
              {t('volumes.create')}
            </button>
            <button type="button" onClick={props.onCancel}>
              {t('common.cancel')}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
