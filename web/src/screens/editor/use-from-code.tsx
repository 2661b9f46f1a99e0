import type { Task } from '../../api/types';
import { Empty } from '../../components/ui';
import { copyText } from '../../lib/copy';
import { linkClick } from '../../lib/router';
import { curlCall, fetchCall, pythonCall } from './code-snippets';

/** Copyable calls that run the saved task from a shell, JavaScript or Python, and where to read more. */
export function UseFromCode(props: { task: Task }) {
  const { id, variables } = props.task;
  if (!id) return <Empty>The calls appear once the task is saved.</Empty>;
  const call = { origin: location.origin, taskId: id, variables };
  const snippets: Array<[string, string, string]> = [
    ['curl', 'curl', curlCall(call)], ['js', 'JavaScript (fetch)', fetchCall(call)], ['python', 'Python (requests)', pythonCall(call)],
  ];
  return (
    <section aria-labelledby="code-title" class="use-from-code">
      <h2 id="code-title">Use from code</h2>
      <p class="hint">
        Each call runs the saved task and answers when the run ends, with its status and <code>result</code>. Set{' '}
        <code>TASKLOOM_API_KEY</code> to the system API key (<a href="/settings#api-key" onClick={linkClick}>Settings</a>);
        the variables shown are the task's own, change them per run. More (runs that answer at once, webhooks, the
        event stream) in the <a href="/api/docs/#/runs/runTask" target="_blank" rel="noopener">API docs</a>.
      </p>
      {snippets.map(([key, label, code]) => (
        <figure key={key} class="snippet">
          <figcaption>
            <span>{label}</span>
            <button type="button" class="btn ghost" aria-label={`Copy the ${label} call`} onClick={() => void copyText(code, `${label} call`)}>Copy</button>
          </figcaption>
          <pre class="code" aria-label={`${label} call`}>{code}</pre>
        </figure>
      ))}
    </section>
  );
}
