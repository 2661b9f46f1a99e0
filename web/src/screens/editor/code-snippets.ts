/** The calls that run a task from code, as the "Use from code" panel shows them. The key stays in the environment. */
export interface RunCall {
  origin: string;
  taskId: string;
  variables?: Record<string, unknown>;
}

const KEY_VAR = 'TASKLOOM_API_KEY';
const urlOf = (call: RunCall) => `${call.origin}/api/tasks/${encodeURIComponent(call.taskId)}/api`;
const hasVariables = (call: RunCall) => Object.keys(call.variables ?? {}).length > 0;
const indent = (text: string, by: string) => text.split('\n').join(`\n${by}`);

export function curlCall(call: RunCall): string {
  const lines = [`curl -s -X POST '${urlOf(call)}'`, `  -H "x-api-key: $${KEY_VAR}"`];
  if (hasVariables(call)) {
    // Single quotes in the shell: a quote inside the JSON closes, escapes and reopens.
    const body = JSON.stringify({ variables: call.variables }).replace(/'/g, `'\\''`);
    lines.push(`  -H 'content-type: application/json'`, `  -d '${body}'`);
  }
  return lines.join(' \\\n');
}

export function fetchCall(call: RunCall): string {
  const body = hasVariables(call)
    ? `\n  headers: { 'x-api-key': process.env.${KEY_VAR}, 'content-type': 'application/json' },\n  body: JSON.stringify(${indent(JSON.stringify({ variables: call.variables }, null, 2), '  ')}),`
    : `\n  headers: { 'x-api-key': process.env.${KEY_VAR} },`;
  return [
    `const response = await fetch(${JSON.stringify(urlOf(call))}, {`,
    `  method: 'POST',${body}`,
    '});',
    'const run = await response.json(); // { executionId, taskId, status, durationMs, result }',
    'console.log(run.status, run.result.data);',
  ].join('\n');
}

/** Python literals for JSON values: true/false/null differ. */
const python = (value: unknown): string => JSON.stringify(value, null, 4)
  .replace(/("(?:[^"\\]|\\.)*")|\b(true|false|null)\b/g, (match, string: string | undefined, word: string | undefined) =>
    string ?? ({ true: 'True', false: 'False', null: 'None' } as Record<string, string>)[word!]!);

export function pythonCall(call: RunCall): string {
  return [
    'import os',
    'import requests',
    '',
    'run = requests.post(',
    `    ${JSON.stringify(urlOf(call))},`,
    `    headers={"x-api-key": os.environ["${KEY_VAR}"]},`,
    ...(hasVariables(call) ? [`    json={"variables": ${indent(python(call.variables), '    ')}},`] : []),
    '    timeout=300,',
    ').json()',
    'print(run["status"], run["result"]["data"])',
  ].join('\n');
}
