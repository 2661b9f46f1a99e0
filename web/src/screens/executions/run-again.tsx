import { useState } from 'preact/hooks';
import { get, seg } from '../../api/client';
import type { Execution, Task } from '../../api/types';
import { RunVariablesDialog } from '../../components/run-variables';
import { Button, ErrorBox } from '../../components/ui';

/** How the service answers a secret-looking variable's value (layers/execution-view/answered-execution.ts). */
const MASKED = '****';
import type { RunRequest } from '../../lib/use-run';

/**
 * "Re-run" (the task again, with the variables this run was given) and "Run with variables…" (a form of the
 * task's variables, read from the task as it is now).
 */
export function RunAgain(props: { execution: Execution; busy: boolean; onRun: (request: RunRequest) => void }) {
  const { execution } = props;
  const [task, setTask] = useState<Task | null>(null);
  const [error, setError] = useState<unknown>(null);
  const ask = async () => {
    setError(null);
    try {
      setTask(await get<Task>(`/api/tasks/${seg(execution.taskId)}`));
    } catch (failure) {
      setError(failure);
    }
  };
  const variables = execution.variables;
  // A secret-looking variable comes back masked: it is asked for again rather than sent as "****".
  const masked = Object.entries(variables ?? {}).filter(([, value]) => value === MASKED).map(([name]) => name);
  const known = variables && Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, value === MASKED ? '' : value]));
  return (
    <>
      <Button busy={props.busy} onClick={() => (masked.length ? void ask() : props.onRun(variables ? { variables } : {}))}
        title={masked.length ? `Asks again for ${masked.join(', ')} (never shown)` : variables ? `Again with ${Object.keys(variables).join(', ')}` : 'Again with the task\'s variables'}>Re-run</Button>
      <Button variant="ghost" onClick={() => void ask()}>Run with variables…</Button>
      <ErrorBox error={error} />
      {task && (
        <RunVariablesDialog open task={{ ...task, variables: { ...task.variables, ...known } }}
          onClose={() => setTask(null)} onRun={props.onRun} />
      )}
    </>
  );
}
