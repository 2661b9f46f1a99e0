import { useState } from 'preact/hooks';
import { get, seg } from '../../api/client';
import type { Execution, Task } from '../../api/types';
import { RunVariablesDialog } from '../../components/run-variables';
import { Button, ErrorBox } from '../../components/ui';
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
  return (
    <>
      <Button busy={props.busy} onClick={() => props.onRun(variables ? { variables } : {})}
        title={variables ? `Again with ${Object.keys(variables).join(', ')}` : 'Again with the task\'s variables'}>Re-run</Button>
      <Button variant="ghost" onClick={() => void ask()}>Run with variables…</Button>
      <ErrorBox error={error} />
      {task && (
        <RunVariablesDialog open task={{ ...task, variables: { ...task.variables, ...variables } }}
          onClose={() => setTask(null)} onRun={props.onRun} />
      )}
    </>
  );
}
