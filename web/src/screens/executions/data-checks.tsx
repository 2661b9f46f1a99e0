import type { ResultDiff } from '../../../../layers/run-intelligence/result-diff.js';
import type { Violation } from '../../../../layers/run-intelligence/violation.js';
import type { ShotComparison } from '../../../../layers/run-intelligence/shot-comparison.js';
import { seg } from '../../api/client';
import type { Execution } from '../../api/types';
import { linkClick } from '../../lib/router';

const text = (value: unknown) => (value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value));
const keyText = (key: Record<string, unknown>) => Object.entries(key).map(([field, value]) => `${field}=${text(value)}`).join(', ');

/**
 * What the task's `expect` and `compare` found (README "Run intelligence"): the broken expectations, and the rows
 * added, removed and changed since the previous successful run.
 */
export function DataChecks(props: { execution: Execution }) {
  const violations = props.execution.violations as Violation[] | undefined;
  const diff = props.execution.diff as ResultDiff | undefined;
  const shots = props.execution.screenshots as ShotComparison[] | undefined;
  if (!violations?.length && !diff && !shots?.length) return null;
  return (
    <>
      {violations && violations.length > 0 && (
        <>
          <h2>Data expectations</h2>
          <ul class="violations" aria-label="Broken expectations">
            {violations.map((v, i) => (
              <li key={i}><span class="badge outcome-invalid_data">{v.rule}</span> {v.message}
                {v.examples.length > 0 && <details><summary>{v.examples.length} example row(s)</summary><pre>{JSON.stringify(v.examples, null, 2)}</pre></details>}
              </li>
            ))}
          </ul>
        </>
      )}
      {diff && (
        <>
          <h2>Changes since the previous run</h2>
          <p class="muted">
            {diff.changed ? `${diff.counts.added} added, ${diff.counts.removed} removed, ${diff.counts.changed} changed` : 'No change'}
            {typeof props.execution.comparedWith === 'string' && <> (against <a href={`/executions/${encodeURIComponent(props.execution.comparedWith)}`} onClick={linkClick}>{props.execution.comparedWith}</a>)</>}
            {diff.note && <> — {diff.note}</>}
          </p>
          {diff.changed && (
            <div class="table-wrap" tabIndex={0}>
              <table class="data-table" aria-label="Changed rows">
                <thead><tr><th>Change</th><th>Row</th><th>Field</th><th>Old</th><th>New</th></tr></thead>
                <tbody>
                  {diff.rows.flatMap((row, i) => Object.entries(row.fields).map(([field, values]) => (
                    <tr key={`c${i}-${field}`}><td>changed</td><td>{keyText(row.key)}</td><td>{field}</td><td>{text(values.old)}</td><td>{text(values.new)}</td></tr>
                  )))}
                  {diff.added.map((row, i) => <tr key={`a${i}`}><td>added</td><td colSpan={4}>{text(row)}</td></tr>)}
                  {diff.removed.map((row, i) => <tr key={`r${i}`}><td>removed</td><td colSpan={4}>{text(row)}</td></tr>)}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
      {shots && shots.length > 0 && <ScreenshotChanges shots={shots} />}
    </>
  );
}

const captureUrl = (name: string) => `/api/data/captures/${seg(name)}`;

/** Each compared screenshot: the previous run's, this run's and the diff (differing pixels red, uncovered area magenta). */
function ScreenshotChanges(props: { shots: ShotComparison[] }) {
  return (
    <>
      <h2>Screenshots since the previous run</h2>
      {props.shots.map((shot, i) => (
        <figure key={i} class="shot-compare" aria-label={`Screenshot of action ${shot.actionIndex + 1}`}>
          <figcaption>
            Action {shot.actionIndex + 1}:{' '}
            {shot.differentPct !== undefined
              ? <><strong>{shot.changed ? 'changed' : 'unchanged'}</strong>, {shot.differentPct}% of pixels differ{shot.sizes && <> (sizes {shot.sizes}: the area only one covers counts as different)</>}</>
              : shot.note ?? 'the first run: the baseline of the next'}
          </figcaption>
          <div class="shot-row">
            {shot.baseline && <a href={captureUrl(shot.baseline)} target="_blank" rel="noreferrer"><img src={captureUrl(shot.baseline)} alt="Previous run" loading="lazy" /><span>Previous</span></a>}
            <a href={captureUrl(shot.capture)} target="_blank" rel="noreferrer"><img src={captureUrl(shot.capture)} alt="This run" loading="lazy" /><span>This run</span></a>
            {shot.diff && <a href={captureUrl(shot.diff)} target="_blank" rel="noreferrer"><img src={captureUrl(shot.diff)} alt="Difference" loading="lazy" /><span>Difference</span></a>}
          </div>
        </figure>
      ))}
    </>
  );
}
