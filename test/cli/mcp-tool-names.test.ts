// How `taskloom mcp` names the tool of each task: safe characters, unique, stable whatever the order.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TOOL_NAME_PATTERN, toolNamesFor } from '../../cli/mcp/tool-names.js';

const names = (tasks: { id: string; name: string }[]) => Object.fromEntries([...toolNamesFor(tasks)].map(([name, task]) => [task.id, name]));

describe('MCP tool names of tasks', () => {
  it('is run_ and the name in snake case, without accents or punctuation', () => {
    assert.deepEqual(names([
      { id: 'task_a', name: 'Read the title' },
      { id: 'task_b', name: '  Prix / Résumé — Café! ' },
      { id: 'task_c', name: 'already_snake-case' },
    ]), { task_a: 'run_read_the_title', task_b: 'run_prix_resume_cafe', task_c: 'run_already_snake-case' });
  });

  it('tasks whose names collide, or give nothing, get their id appended; the result does not depend on order', () => {
    const tasks = [
      { id: 'task_X1', name: 'Search' },
      { id: 'task_x1', name: 'search!' },
      { id: 'task_z', name: '日本語' },
      { id: 'a very/long id that is not a plain word at all', name: 'Search' },
    ];
    const forward = names(tasks);
    assert.deepEqual(forward, names([...tasks].reverse()));
    assert.equal(forward.task_X1, 'run_search_task_X1');
    assert.equal(forward.task_x1, 'run_search_task_x1');
    assert.equal(forward.task_z, 'run_task_z');
    assert.match(forward['a very/long id that is not a plain word at all']!, /^run_search_[0-9a-f]{8}$/);
  });

  it('every name fits the pattern MCP clients accept (64 characters at most) and is unique', () => {
    const tasks = Array.from({ length: 50 }, (_, i) => ({ id: `id/${i % 5}`, name: `${'Very long task name '.repeat(6)}${i % 3}` }));
    const named = toolNamesFor(tasks);
    assert.equal(named.size, 50);
    for (const name of named.keys()) assert.match(name, TOOL_NAME_PATTERN);
  });
});
