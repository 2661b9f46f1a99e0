import { useEffect, useState } from 'preact/hooks';
import { del, post, seg } from '../../api/client';
import type { Schedule, ScheduleDescription } from '../../api/types';
import { announce } from '../../components/dialogs';
import { Button, CheckField, Empty, ErrorBox, isNotAvailable, NotAvailable, SelectField, TextField } from '../../components/ui';
import { formatDate } from '../../lib/format';
import { DAY_NAMES } from '../../lib/schedule-text';
import { useAction } from '../../lib/use-async';

const FREQUENCIES: Array<[string, string]> = [
  ['interval', 'Every few minutes'], ['hourly', 'Hourly'], ['daily', 'Daily'], ['weekly', 'Weekly'], ['monthly', 'Monthly'], ['cron', 'Cron expression'],
];

/** The schedule as sent: only the fields of the chosen kind. */
function payload(form: Schedule, kind: string): Schedule {
  const base: Schedule = { enabled: form.enabled };
  if (form.timezone) base.timezone = form.timezone;
  if (kind === 'cron') return { ...base, cron: form.cron ?? '' };
  const out: Schedule = { ...base, frequency: kind as Schedule['frequency'] };
  if (kind === 'interval') out.intervalMinutes = form.intervalMinutes ?? 15;
  if (kind === 'hourly') out.minute = form.minute ?? 0;
  if (kind === 'daily' || kind === 'weekly' || kind === 'monthly') Object.assign(out, { hour: form.hour ?? 9, minute: form.minute ?? 0 });
  if (kind === 'weekly') out.daysOfWeek = form.daysOfWeek ?? [1];
  if (kind === 'monthly') out.dayOfMonth = form.dayOfMonth ?? 1;
  return out;
}

const num = (text: string) => (text === '' ? undefined : Number(text));

/** Schedule of a saved task, with the server's live description and next run (`/api/schedules/...`). */
export function ScheduleTab(props: { taskId?: string; schedule?: Schedule; onSaved: (schedule: Schedule | undefined) => void }) {
  const initial = props.schedule ?? { enabled: true, frequency: 'daily', hour: 9, minute: 0 };
  const [form, setForm] = useState<Schedule>(initial);
  const [kind, setKind] = useState<string>(initial.frequency ?? (initial.cron ? 'cron' : 'daily'));
  const [described, setDescribed] = useState<ScheduleDescription | null>(null);
  const [describeError, setDescribeError] = useState<unknown>(null);
  const action = useAction();
  const body = payload(form, kind);
  const key = JSON.stringify(body);

  useEffect(() => {
    if (!props.taskId) return undefined;
    const timer = setTimeout(() => {
      post<ScheduleDescription>(`/api/schedules/${seg(props.taskId!)}/describe`, body)
        .then((d) => { setDescribed(d); setDescribeError(null); }, (e: unknown) => { setDescribed(null); setDescribeError(e); });
    }, 300);
    return () => clearTimeout(timer);
  }, [key, props.taskId]);

  if (!props.taskId) return <Empty>Save the task first, then schedule it.</Empty>;
  if (isNotAvailable(describeError)) return <NotAvailable what="Scheduling" />;

  const set = (patch: Partial<Schedule>) => setForm((f) => ({ ...f, ...patch }));
  const time = `${String(form.hour ?? 9).padStart(2, '0')}:${String(form.minute ?? 0).padStart(2, '0')}`;

  const save = async () => {
    const answer = await action.run(() => post<{ schedule: Schedule; description?: string; nextRun?: number | null }>(`/api/schedules/${seg(props.taskId!)}`, body));
    if (answer) {
      announce('Schedule saved');
      props.onSaved(answer.schedule);
    }
  };
  const disable = async () => {
    const answer = await action.run(() => del(`/api/schedules/${seg(props.taskId!)}`));
    if (answer) {
      set({ enabled: false });
      announce('Schedule disabled');
      props.onSaved(props.schedule ? { ...props.schedule, enabled: false, nextRun: null } : undefined);
    }
  };

  return (
    <section aria-labelledby="schedule-title">
      <h2 id="schedule-title">Schedule</h2>
      <CheckField label="Enabled" checked={form.enabled} onChecked={(enabled) => set({ enabled })} />
      <div class="grid-2">
        <SelectField label="Repeat" value={kind} onValue={setKind} options={FREQUENCIES} />
        <TextField label="Time zone" value={form.timezone ?? ''} onValue={(timezone) => set({ timezone: timezone || undefined })}
          placeholder="server time zone" hint="An IANA name such as Europe/Paris; empty: the server's." />
      </div>
      {kind === 'interval' && <TextField label="Every (minutes)" type="number" min={1} value={form.intervalMinutes ?? 15} onValue={(v) => set({ intervalMinutes: num(v) })} />}
      {kind === 'hourly' && <TextField label="Minute past the hour" type="number" min={0} max={59} value={form.minute ?? 0} onValue={(v) => set({ minute: num(v) })} />}
      {(kind === 'daily' || kind === 'weekly' || kind === 'monthly') && (
        <TextField label="Time of day" type="time" value={time} onValue={(v) => {
          const [h, m] = v.split(':');
          set({ hour: num(h ?? ''), minute: num(m ?? '') });
        }} />
      )}
      {kind === 'weekly' && (
        <fieldset class="days">
          <legend>Days of the week</legend>
          {DAY_NAMES.map((day, index) => (
            <CheckField key={day} label={day} checked={(form.daysOfWeek ?? [1]).includes(index)} onChecked={(on) => {
              const days = new Set(form.daysOfWeek ?? [1]);
              if (on) days.add(index);
              else days.delete(index);
              set({ daysOfWeek: [...days].sort() });
            }} />
          ))}
        </fieldset>
      )}
      {kind === 'monthly' && <TextField label="Day of the month" type="number" min={1} max={31} value={form.dayOfMonth ?? 1} onValue={(v) => set({ dayOfMonth: num(v) })} />}
      {kind === 'cron' && <TextField label="Cron expression" value={form.cron ?? ''} onValue={(cron) => set({ cron })} placeholder="0 9 * * 1-5"
        hint="Five fields: minute hour day-of-month month day-of-week." spellcheck={false} />}

      <div class="schedule-preview card" role="status" aria-live="polite">
        {described ? (
          described.valid ? (
            <>
              <p><strong>{described.description}</strong></p>
              <p class="muted">{described.cron && <>cron <code>{described.cron}</code> · </>}next run {described.nextRun ? formatDate(described.nextRun) : 'none (disabled)'}</p>
            </>
          ) : <p class="field-error">Not a valid schedule: {described.error ?? described.description}</p>
        ) : describeError ? <ErrorBox error={describeError} /> : <p class="muted">Describing…</p>}
      </div>
      {props.schedule && (
        <p class="muted">
          Last run {formatDate(props.schedule.lastRun)}{props.schedule.lastRunStatus ? ` (${props.schedule.lastRunStatus})` : ''}
          {props.schedule.nextRun ? ` · scheduled next ${formatDate(props.schedule.nextRun)}` : ''}
        </p>
      )}
      <ErrorBox error={action.error} what="Scheduling" />
      <div class="actions-row">
        <Button variant="primary" busy={action.busy} disabled={described?.valid === false} onClick={() => void save()}>Save schedule</Button>
        {props.schedule?.enabled && <Button variant="danger" busy={action.busy} onClick={() => void disable()}>Disable schedule</Button>}
      </div>
    </section>
  );
}
