import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { TaskDetail } from '../api-types.js';
import { toolNamesFor } from './tool-names.js';

export interface TaskTools {
  tools: Tool[];
  /** The task each tool runs, by tool name. */
  tasks: Map<string, TaskDetail>;
}

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The input schema of a task's tool: each task variable as a string property whose default is the task's. */
function inputSchemaOf(task: TaskDetail): Tool['inputSchema'] {
  const properties: Record<string, object> = {};
  for (const [name, value] of Object.entries(task.variables ?? {})) {
    properties[name] = {
      type: 'string',
      default: asText(value),
      description: `Task variable ${name}${typeof value === 'string' ? '' : ' (JSON)'}; leave it out to use the default.`,
    };
  }
  return { type: 'object', properties, additionalProperties: false };
}

function descriptionOf(task: TaskDetail): string {
  const what = task.description?.trim() || `Runs the taskloom task "${task.name}".`;
  return `${what}\n\nRuns in a browser (starting at ${task.url}) and answers the run's result as JSON: status, durationMs, result.data.`;
}

/** One tool per stored task, named by `toolNamesFor`. */
export function taskTools(tasks: readonly TaskDetail[]): TaskTools {
  const named = toolNamesFor(tasks);
  const tools = [...named].map(([name, task]): Tool => ({
    name,
    title: task.name,
    description: descriptionOf(task),
    inputSchema: inputSchemaOf(task),
    annotations: { title: task.name, readOnlyHint: false, openWorldHint: true },
  }));
  return { tools, tasks: named };
}

/**
 * The run's variables from the tool's arguments: strings as given, except that a variable whose default is not
 * a string (a number, an object) takes the JSON the string holds, when it holds some.
 */
export function variablesFrom(task: TaskDetail, args: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!args || Object.keys(args).length === 0) return undefined;
  const variables: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    const fallback = task.variables?.[name];
    if (typeof value === 'string' && fallback !== undefined && typeof fallback !== 'string') {
      try {
        variables[name] = JSON.parse(value);
        continue;
      } catch {
        // not JSON: the string as given
      }
    }
    variables[name] = value;
  }
  return variables;
}
