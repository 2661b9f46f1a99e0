import { get } from '../../api/client';
import type { CapabilitiesReport } from '../../api/types';
import { Button, ErrorBox, Loading } from '../../components/ui';
import { useAsync } from '../../lib/use-async';

const percent = (fill: number) => `${Math.round(fill * 100)} %`;

/** What this instance takes on (GET /api/capabilities): runs at once and how that was decided, the queue, the engines. */
export function CapacitySection() {
  const report = useAsync(() => get<CapabilitiesReport>('/api/capabilities'), []);
  const runs = report.data?.runs;
  return (
    <section id="capacity" class="card" aria-labelledby="capacity-title">
      <h2 id="capacity-title">Capacity</h2>
      <p class="hint">How many runs this instance runs at once and how many may wait; a run beyond that is refused
        with <code>429 QUEUE_FULL</code> and a <code>Retry-After</code>. Set <code>MAX_CONCURRENT_RUNS</code> and
        <code> MAX_QUEUED_RUNS</code> to fix them.</p>
      <ErrorBox error={report.error} onRetry={report.reload} />
      {report.loading && !report.data && <Loading />}
      {runs && report.data && (
        <>
          <dl class="capacity">
            <dt>Runs at once</dt>
            <dd data-testid="max-concurrent-runs">{runs.maxConcurrentRuns}
              <span class="muted"> ({runs.source === 'computed' ? 'computed from this host' : 'MAX_CONCURRENT_RUNS'})</span></dd>
            <dt>Computed</dt>
            <dd class="muted" data-testid="limit-explanation">{runs.computed.explanation}</dd>
            <dt>Memory a run</dt>
            <dd>{runs.memoryPerRunMb} MB <span class="muted">({runs.memoryEstimate === 'measured'
              ? `measured, ${runs.memorySamples} samples` : runs.memoryEstimate === 'default' ? 'default until runs are measured' : 'RUN_MEMORY_ESTIMATE_MB'})</span></dd>
            <dt>Host</dt>
            <dd>{runs.host.memoryMb} MB ({runs.host.memorySource}), {runs.host.cpus} CPUs ({runs.host.cpuSource}); {runs.host.reserveMb} MB kept free</dd>
            <dt>Queue</dt>
            <dd data-testid="queue-fill">{runs.queue.queued} of {runs.queue.maxQueuedRuns} waiting ({percent(runs.queue.fill)}), {runs.queue.running} running
              <span class="muted"> — {runs.queue.provider}: counts {runs.queue.counts}</span></dd>
            <dt>Average run</dt>
            <dd>{(runs.averageRunMs / 1000).toFixed(1)} s <span class="muted">({runs.runsObserved ? `${runs.runsObserved} runs observed` : 'default until a run ends'}; a refused run is told to retry in {runs.queue.retryAfterSeconds} s)</span></dd>
            <dt>Browser engines</dt>
            <dd>{report.data.browser.engines.map((engine) => (engine === report.data!.browser.engine ? `${engine} (in use)` : engine)).join(', ')}</dd>
          </dl>
          <Button variant="ghost" onClick={report.reload}>Refresh</Button>
        </>
      )}
    </section>
  );
}
