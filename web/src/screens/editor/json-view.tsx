import { useEffect, useRef, useState } from 'preact/hooks';
import type { Task } from '../../api/types';
import { Field } from '../../components/ui';

/** What the JSON view shows: the editable task, without server-kept fields. */
export function editableJson(task: Task): string {
  const { versions: _v, createdAt: _c, updatedAt: _u, id: _id, ...rest } = task;
  return JSON.stringify(rest, null, 2);
}

/** The task as JSON, both ways: canvas edits show here; valid edits here update the canvas. */
export function JsonView(props: { task: Task; onChange: (task: Task) => void }) {
  const current = editableJson(props.task);
  const [text, setText] = useState(current);
  const [problem, setProblem] = useState<string | null>(null);
  const lastApplied = useRef(current);

  useEffect(() => {
    if (current !== lastApplied.current) {
      lastApplied.current = current;
      setText(current);
      setProblem(null);
    }
  }, [current]);

  const onInput = (value: string) => {
    setText(value);
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch (error) {
      return setProblem(`Not valid JSON yet: ${(error as Error).message}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return setProblem('The task must be a JSON object.');
    const task = parsed as Task;
    if (!Array.isArray(task.actions)) return setProblem('“actions” must be an array.');
    setProblem(null);
    const next: Task = { ...task, id: props.task.id, versions: props.task.versions, createdAt: props.task.createdAt, updatedAt: props.task.updatedAt };
    lastApplied.current = editableJson(next);
    props.onChange(next);
  };

  return (
    <section aria-labelledby="json-title">
      <h2 id="json-title">JSON</h2>
      <Field label="Task as JSON" hint="Edits apply to the canvas as soon as they are valid JSON; the server checks the fields when you save.">
        {(id, described) => (
          <textarea id={id} aria-describedby={described} aria-invalid={problem ? true : undefined} class="code json-editor"
            rows={24} spellcheck={false} value={text} onInput={(e) => onInput((e.currentTarget as HTMLTextAreaElement).value)} />
        )}
      </Field>
      {problem && <p class="field-error" role="status">{problem}</p>}
    </section>
  );
}
