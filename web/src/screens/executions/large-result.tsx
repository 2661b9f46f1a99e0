import type { Execution, RunResult } from '../../api/types';
import { get, seg } from '../../api/client';
import { ResultData } from '../../components/result-data';
import { Button, ErrorBox, Loading } from '../../components/ui';
import { formatSize } from '../../lib/format';
import { useAction } from '../../lib/use-async';
import { useState } from 'preact/hooks';

/**
 * A result stored apart from its record for its size (README "Large results"): its size, a download link, and
 * the data shown once asked for (read from `GET /api/executions/{id}/result`).
 */
export function LargeResult(props: { execution: Execution }) {
  const { executionId, resultStoredApart } = props.execution;
  const action = useAction();
  const [loaded, setLoaded] = useState<RunResult | undefined>();
  if (!resultStoredApart) return null;
  const url = `/api/executions/${seg(executionId)}/result`;
  const view = async () => {
    const result = await action.run(() => get<RunResult>(url));
    if (result) setLoaded(result);
  };
  return (
    <div class="large-result">
      <p>
        <strong>Large result, {formatSize(resultStoredApart.bytes)}</strong>
        <span class="muted"> · stored apart from the execution record</span>
      </p>
      <div class="toolbar">
        <a class="btn" href={url} download={`execution-${executionId}-result.json`}>Download result (JSON)</a>
        {!loaded && <Button variant="ghost" onClick={() => void view()} busy={action.busy}>View result</Button>}
      </div>
      <ErrorBox error={action.error} />
      {action.busy && <Loading />}
      {loaded && <ResultData data={loaded.data} filename={`execution-${executionId}`} idPrefix="exec-large-result" />}
    </div>
  );
}
