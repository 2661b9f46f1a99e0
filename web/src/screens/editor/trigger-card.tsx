import type { Task } from '../../api/types';
import { Field, SelectField, TextField } from '../../components/ui';

const MODES: Array<[string, string]> = [
  ['agent', 'agent: run the actions in a browser'],
  ['scrape', 'scrape: load the URL and run only the extraction script'],
  ['headful', 'headful: run in the visible headful session'],
  ['http', 'http: fetch the URL without a browser and apply the field mapping'],
];

/** The start of the canvas: where the run begins and how. */
export function TriggerCard(props: { task: Task; onChange: (patch: Partial<Task>) => void }) {
  const { task } = props;
  return (
    <section class="card trigger-card" aria-labelledby="trigger-title">
      <h2 id="trigger-title"><span class="badge">trigger</span> Start</h2>
      <div class="grid-2">
        <TextField label="Task name" value={task.name} onValue={(name) => props.onChange({ name })} required maxLength={200} />
        <SelectField label="Mode" value={task.mode} onValue={(mode) => props.onChange({ mode })}
          options={MODES.some(([m]) => m === task.mode) ? MODES : [...MODES, [task.mode, task.mode]]} />
      </div>
      <TextField label="URL" type="url" value={task.url} onValue={(url) => props.onChange({ url })} required
        placeholder="https://example.com" hint="Where the run starts; may hold {$name} placeholders." />
      <Field label="Description" hint="Shown here and in the task list.">
        {(id, described) => (
          <textarea id={id} aria-describedby={described} rows={2} maxLength={2000} value={task.description ?? ''}
            onInput={(e) => props.onChange({ description: (e.currentTarget as HTMLTextAreaElement).value })} />
        )}
      </Field>
    </section>
  );
}
