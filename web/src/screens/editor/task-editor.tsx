import { useEffect, useState } from 'preact/hooks';
import { del, get, post, query, seg } from '../../api/client';
import type { Execution, Schedule, Task } from '../../api/types';
import { RunVariablesDialog } from '../../components/run-variables';
import { announce } from '../../components/dialogs';
import { Tabs } from '../../components/tabs';
import { Button, ErrorBox, Loading } from '../../components/ui';
import { linkClick, navigate, useLeaveGuard } from '../../lib/router';
import { useAction } from '../../lib/use-async';
import { useRun, type RunRequest } from '../../lib/use-run';
import { canChange } from '../../lib/role';
import { failureOf, type ActionFailure } from './action-failure';
import { EditConflict, getTagged, isEditConflict, patchIfMatch } from './edit-conflict';
import { ActionList } from './action-list';
import { JsonView } from './json-view';
import { OptionsTab } from './options-tab';
import { RunPanel } from './run-panel';
import { RunToHerePanel, useRunToHere } from './run-to-here';
import { RunsPanel } from './runs-panel';
import { ScheduleTab } from './schedule-tab';
import { SelectorFinder } from './selector-finder';
import { blankTask, editableFields, fingerprint, patchBody, problems, withActionIds } from './task-draft';
import { TriggerCard } from './trigger-card';
import { UseFromCode } from './use-from-code';
import { VariablesEditor } from './variables-editor';
import { VersionsPanel } from './versions-panel';
import { RepairsPanel } from './repairs-panel';
import { FilesPanel } from './files-panel';
import { takeRecording } from '../studio/recording-handoff';

const TABS = [
  { id: 'canvas', label: 'Canvas' }, { id: 'variables', label: 'Variables' }, { id: 'options', label: 'Script & options' },
  { id: 'json', label: 'JSON' }, { id: 'files', label: 'Files' }, { id: 'versions', label: 'Versions' }, { id: 'repairs', label: 'Repairs' }, { id: 'schedule', label: 'Schedule' },
  { id: 'runs', label: 'Runs' }, { id: 'code', label: 'Use from code' },
];

/** Create or edit a task: canvas, variables, options, JSON, versions, schedule, and a live run. */
export function TaskEditor(props: { id?: string }) {
  const [saved, setSaved] = useState<Task | null>(props.id ? null : blankTask());
  const [draft, setDraft] = useState<Task>(blankTask());
  const [revision, setRevision] = useState(0);
  const [loadError, setLoadError] = useState<unknown>(null);
  // The ETag of the task as last read here: a save sends it as If-Match, so edits made elsewhere are not lost.
  const [etag, setEtag] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);
  const [tab, setTab] = useState('canvas');
  const [issues, setIssues] = useState<string[]>([]);
  const [studioSession, setStudioSession] = useState<string | undefined>();
  const [finder, setFinder] = useState<{ index: number; mode: 'highlight' | 'ai' } | null>(null);
  const save = useAction();
  const { state: run, start, cancel } = useRun();
  const [showRun, setShowRun] = useState(false);
  const toHere = useRunToHere();
  const [askVariables, setAskVariables] = useState(false);
  // The action a run failed at: of the run just made here, or of the execution the editor was opened from.
  const [failure, setFailure] = useState<ActionFailure | null>(null);

  const load = (task: Task, tag?: string | null) => {
    if (tag !== undefined) setEtag(tag);
    setConflict(false);
    const ready = withActionIds(task);
    setSaved(ready);
    setDraft(ready);
    setRevision((r) => r + 1);
  };

  // A recording from the studio becomes the unsaved draft, once the task it was made for is loaded.
  useEffect(() => {
    const recorded = saved && takeRecording(props.id, draft);
    if (recorded) {
      setDraft(recorded.task);
      setStudioSession(recorded.sessionId);
      setRevision((r) => r + 1);
    }
  }, [saved]);
  // The studio session the recording came from, open until the editor leaves it or the task is saved.
  useEffect(() => () => { if (studioSession) void del(`/api/studio/sessions/${seg(studioSession)}`).catch(() => undefined); }, [studioSession]);
  useEffect(() => {
    if (!props.id) return;
    getTagged(props.id).then((read) => load(read.task, read.etag), setLoadError);
    const from = new URLSearchParams(location.search).get('execution');
    if (from) get<Execution>(`/api/executions/${seg(from)}`).then((e) => setFailure(failureOf(e.result)), () => undefined);
  }, [props.id]);

  useEffect(() => { if (run.answer) setFailure(failureOf(run.answer.result)); }, [run.answer]);

  const dirty = saved !== null && fingerprint(saved) !== fingerprint(draft);
  useLeaveGuard(dirty, 'This task has unsaved changes. Leave without saving them?');

  /** A task changed here by another panel (restore, repair, schedule): read again, with its new ETag. */
  const reload = async (id = draft.id) => {
    if (!id) return;
    const read = await getTagged(id);
    load(read.task, read.etag);
  };

  /** `overwrite`: after a conflict, the whole draft replaces the task as stored (theirs becomes a version). */
  const persist = async (overwrite = false): Promise<Task | undefined> => {
    const found = problems(draft);
    setIssues(found);
    if (found.length > 0 || !saved) return undefined;
    const read = await save.run(async () => {
      try {
        const written = !draft.id
          ? await post<Task>('/api/tasks', editableFields(draft))
          : overwrite
            ? await post<Task>('/api/tasks?version=true', { ...editableFields(draft), id: draft.id })
            : await patchIfMatch(draft.id, patchBody(saved, draft), etag);
        return await getTagged(written.id!);
      } catch (error) {
        if (!isEditConflict(error)) throw error;
        setConflict(true);
        return undefined;
      }
    });
    if (!read) return undefined;
    const result = read.task;
    if (studioSession) {
      // Healing: the elements recorded or picked in the studio are fingerprinted for the saved actions (best effort).
      await post(`/api/studio/sessions/${seg(studioSession)}/fingerprints`, { taskId: result.id }).catch(() => undefined);
      setStudioSession(undefined);
    }
    announce(`Saved ${result.name}`);
    load(result, read.etag);
    if (!draft.id) navigate(`/tasks/${encodeURIComponent(result.id!)}`, { replace: true, force: true });
    return result;
  };

  const runNow = async (request?: RunRequest) => {
    const task = dirty || !draft.id ? await persist() : draft;
    if (!task?.id) return;
    setShowRun(true);
    await start(task.id, request);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
      event.preventDefault();
      void persist();
    }
  };

  const openFinder = async (index: number) => {
    const mode = await get<{ selectorFinder: 'highlight' | 'ai' }>('/api/settings/selector-finder').then((r) => r.selectorFinder, () => 'highlight' as const);
    setFinder({ index, mode });
  };

  if (loadError) return <section><h1>Task</h1><ErrorBox error={loadError} /><a href="/tasks" onClick={linkClick}>Back to the tasks</a></section>;
  if (!saved) return <Loading label="Loading the task…" />;
  const change = (patchFields: Partial<Task>) => setDraft((d) => ({ ...d, ...patchFields }));
  const running = run.phase === 'starting' || run.phase === 'running';

  return (
    <section class="editor" aria-labelledby="page-title" onKeyDown={onKeyDown}>
      <header class="page-header">
        <div>
          <a href="/tasks" onClick={linkClick} class="muted">← Tasks</a>
          <h1 id="page-title">{draft.id ? draft.name || 'Untitled task' : 'New task'}</h1>
        </div>
        <div class="toolbar">
          <span class="muted" role="status">{dirty ? 'Unsaved changes' : draft.id ? 'Saved' : ''}</span>
          {canChange() ? (
            <>
              <Button variant="primary" busy={save.busy} onClick={() => void persist()} title="Ctrl+S">Save</Button>
              <Button busy={running} onClick={() => void runNow()}>{dirty || !draft.id ? 'Save & run' : 'Run'}</Button>
              <Button variant="ghost" disabled={running} onClick={() => setAskVariables(true)}>Run with variables…</Button>
              <a class="btn ghost" href={`/studio${query({ url: draft.url, task: draft.id })}`} onClick={linkClick}>Record</a>
            </>
          ) : <span class="badge">Read only: viewers cannot save or run</span>}
        </div>
      </header>
      {issues.length > 0 && <div class="error-box" role="alert"><ul>{issues.map((i) => <li key={i}>{i}</li>)}</ul></div>}
      <ErrorBox error={save.error} />
      {conflict && <EditConflict busy={save.busy} onReload={() => void reload().catch(setLoadError)} onOverwrite={() => void persist(true)} />}
      {showRun && run.phase !== 'idle' && <RunPanel task={draft} run={run} onCancel={() => void cancel()} onClose={() => setShowRun(false)} />}
      <Tabs label="Task editor" idPrefix="editor" tabs={TABS} active={tab} onChange={(next) => { setDraft((d) => withActionIds(d)); setTab(next); }}>
        {tab === 'canvas' && (
          <div class={toHere.state ? 'canvas with-side' : 'canvas'}>
            <div>
              <TriggerCard task={draft} onChange={change} />
              <ActionList actions={draft.actions} onChange={(actions) => change({ actions })} onFindSelector={(i) => void openFinder(i)}
                onRunToHere={(i) => void toHere.start(draft, i)} failure={failure} />
            </div>
            {toHere.state && <RunToHerePanel state={toHere.state} onStop={toHere.stop} onClose={toHere.close} />}
          </div>
        )}
        {tab === 'variables' && <VariablesEditor key={revision} variables={draft.variables} onChange={(variables) => change({ variables: Object.keys(variables).length ? variables : undefined })} />}
        {tab === 'options' && <OptionsTab task={draft} onChange={change} />}
        {tab === 'json' && <JsonView task={draft} onChange={setDraft} />}
        {tab === 'files' && <FilesPanel taskId={draft.id} />}
        {tab === 'versions' && <VersionsPanel task={saved} dirty={dirty} onRestored={(task) => { void reload(task.id); announce('Version restored'); }} />}
        {tab === 'repairs' && <RepairsPanel task={saved} dirty={dirty} onAccepted={(task) => { void reload(task.id); announce('Repair accepted: a new version'); }} />}
        {tab === 'runs' && <RunsPanel taskId={draft.id} refresh={run.phase} />}
        {tab === 'code' && <UseFromCode task={saved} />}
        {tab === 'schedule' && (
          <ScheduleTab key={revision} taskId={draft.id} schedule={saved.schedule}
            onSaved={(schedule: Schedule | undefined) => {
              setSaved((s) => s && { ...s, schedule });
              change({ schedule });
              // Saving the schedule changed the stored task: its new ETag, for the next save.
              if (draft.id) void getTagged(draft.id).then((read) => setEtag(read.etag), () => undefined);
            }} />
        )}
      </Tabs>
      {askVariables && <RunVariablesDialog open task={draft} onClose={() => setAskVariables(false)} onRun={(request) => void runNow(request)} />}
      {finder && (
        <SelectorFinder open finder={finder.mode} task={draft} actionIndex={finder.index} onClose={() => setFinder(null)}
          onUse={(selector) => change({ actions: draft.actions.map((a, i) => (i === finder.index ? { ...a, selector } : a)) })} />
      )}
    </section>
  );
}
