// `taskloom --help`, `taskloom <command> --help` and usage errors (exit 2); no service. The exit codes are checked
// on real child processes; the many cases behind them run the same dispatcher in this process (a spawn costs a second).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COMMANDS } from '../../cli/command-list.js';
import { runInProcess, runTaskloom } from './cli-process.js';

describe('taskloom --help and usage errors', () => {
  it('--help lists every command, the environment variables and the exit codes', async () => {
    const { code, stdout } = await runTaskloom(['--help']);
    assert.equal(code, 0);
    for (const command of COMMANDS) assert.match(stdout, new RegExp(`^  ${command.path.join(' ')}\\s+\\S`, 'm'), command.path.join(' '));
    for (const name of ['TASKLOOM_URL', 'TASKLOOM_API_KEY']) assert.ok(stdout.includes(name), name);
    for (const line of [/^ {2}0 {2}ok/m, /^ {2}1 {2}failed/m, /^ {2}2 {2}usage/m, /^ {2}3 {2}unreachable/m, /^ {2}4 {2}not found/m]) assert.match(stdout, line);
  });

  it('every command answers --help with its own usage, exit 0, and a client command shows the connection options', async () => {
    const results = await Promise.all(COMMANDS.map(async (command) => ({ command, ...(await runInProcess([...command.path, '--help'])) })));
    for (const { command, code, stdout } of results) {
      assert.equal(code, 0, command.path.join(' '));
      assert.ok(stdout.startsWith(`Usage: taskloom ${command.path.join(' ')}`), stdout);
      if (!['serve', 'migrate', 'secrets'].includes(command.path[0]!)) assert.match(stdout, /--url <url>[\s\S]*--api-key <key>/, command.path.join(' '));
    }
  });

  it('-h works after other arguments too', async () => {
    const { code, stdout } = await runInProcess(['run', 'some-task', '--wait', '-h']);
    assert.equal(code, 0);
    assert.match(stdout, /^Usage: taskloom run <task>/);
  });

  it('an unknown command exits 2 with the command list on stderr', async () => {
    const { code, stdout, stderr } = await runTaskloom(['frobnicate']);
    assert.equal(code, 2);
    assert.equal(stdout, '');
    assert.match(stderr, /unknown command "frobnicate"/);
    assert.match(stderr, /Commands:/);
  });

  it('a group word alone or with an unknown sub-command exits 2 naming the sub-commands', async () => {
    const alone = await runInProcess(['tasks']);
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /tasks list/);
    const unknown = await runInProcess(['executions', 'purge']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command "purge"[\s\S]*executions list/);
  });

  it('an unknown option exits 2 (child process)', async () => {
    const { code, stdout, stderr } = await runTaskloom(['tasks', 'list', '--bogus']);
    assert.equal(code, 2);
    assert.equal(stdout, '');
    assert.match(stderr, /Unknown option '--bogus'[\s\S]*See `taskloom tasks list --help`/);
  });

  it('unknown options, missing or extra arguments and bad values exit 2 with a pointer to --help', async () => {
    const cases: [string[], RegExp][] = [
      [['tasks', 'list', '--bogus'], /Unknown option '--bogus'/],
      [['run'], /name the task to run/],
      [['run', 'a', 'b'], /one task at a time/],
      [['run', 'a', '--var', 'novalue'], /--var: expected name=value/],
      [['executions', 'list', '--limit', 'ten'], /--limit: expected a whole number/],
      [['export', '--format', 'xml'], /--format: expected one of avro, ndjson, csv/],
      [['tasks', 'list', '--url', 'not a url'], /--url: "not a url" is not a URL/],
      [['tasks', 'list', '--url', 'ftp://example.com'], /is not an http\(s\) URL/],
      [['mcp', '--watch', '-1'], /--watch/],
    ];
    const results = await Promise.all(cases.map(([args]) => runInProcess(args)));
    results.forEach(({ code, stderr }, i) => {
      const [args, message] = cases[i]!;
      assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
      assert.match(stderr, message);
      assert.match(stderr, /See `taskloom .+ --help`/);
    });
  });

  it('--version prints the package version', async () => {
    const { code, stdout } = await runInProcess(['--version']);
    assert.equal(code, 0);
    assert.match(stdout.trim(), /^\d+\.\d+\.\d+/);
  });
});
