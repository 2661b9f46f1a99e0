import { createApiClient } from '../api-client.js';
import type { CliCommand } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import { CONNECTION_HELP, connectionFrom, connectionOptions, integerOption, parseOptions } from '../options.js';

export const command: CliCommand = {
  path: ['mcp'],
  summary: 'Serve the tasks as tools to AI agents (Model Context Protocol over stdio)',
  help: `Usage: taskloom mcp [--watch <seconds>]

An MCP server on stdin/stdout for AI agents (Claude Desktop, Claude Code, Cursor, ...). It talks to the running
service over HTTP with the API key. Tools: one run_<task name> per stored task (its variables as string
arguments; runs it and answers the result JSON), list_executions, get_execution. The tool list is re-read on
every tools/list, and the client is told when the tasks change.

Options:
  --watch <seconds>  how often to look for changed tasks (default 10; 0 turns it off)

${CONNECTION_HELP}

Client configuration (e.g. claude_desktop_config.json):
  { "mcpServers": { "taskloom": { "command": "taskloom", "args": ["mcp"],
      "env": { "TASKLOOM_URL": "http://127.0.0.1:11345", "TASKLOOM_API_KEY": "tlk_..." } } } }`,

  async run(args, io) {
    const { values } = parseOptions(args, { ...connectionOptions, watch: { type: 'string' } });
    const watchSeconds = integerOption('watch', values.watch, 0, 86_400) ?? 10;
    const client = createApiClient(connectionFrom(values, io.env));
    // Loaded here: the SDK is only needed by this command.
    const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
    const { createTaskloomMcpServer } = await import('../mcp/server.js');
    const { server, stop } = createTaskloomMcpServer(client, { watchMs: watchSeconds * 1000 });
    const closed = new Promise<void>((resolve) => {
      server.onclose = resolve;
      process.stdin.once('end', resolve); // the client went away
    });
    await server.connect(new StdioServerTransport());
    await closed;
    stop();
    await server.close();
    return ExitCode.ok;
  },
};
