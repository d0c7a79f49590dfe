// spec/mcp_http_sdk.mjs: the official MCP TypeScript SDK's client, over its
// StreamableHTTPClientTransport, against `vdxlua mcp --port` (run by
// spec/mcp_http_spec.lua).  node spec/mcp_http_sdk.mjs SDK_DIR MCP_URL PAGE_URL
// prints one JSON line: what the client saw.
import { pathToFileURL } from "node:url";

const [sdk, url, page] = process.argv.slice(2);
const { Client } = await import(pathToFileURL(`${sdk}/dist/esm/client/index.js`).href);
const { StreamableHTTPClientTransport } = await import(pathToFileURL(`${sdk}/dist/esm/client/streamableHttp.js`).href);

const client = new Client({ name: "vdx-spec", version: "1.0.0" });
const transport = new StreamableHTTPClientTransport(new URL(url));
await client.connect(transport);
const out = { sessionId: transport.sessionId, protocolVersion: transport.protocolVersion };
const tools = await client.listTools();
out.tools = tools.tools.length;
const nav = await client.callTool({ name: "browser_navigate", arguments: { url: page } });
out.navigate = nav.content[0].text;
const snap = await client.callTool({ name: "browser_snapshot", arguments: {} });
out.snapshot = snap.content[0].text;
const progress = [];
const slow = await client.callTool({ name: "browser_wait_for", arguments: { time: 1.5 } }, undefined,
  { onprogress: (p) => progress.push(p.progress) });
out.slow = slow.content[0].text;
out.progress = progress;
await transport.terminateSession();
out.terminated = transport.sessionId === undefined;
await client.close();
console.log(JSON.stringify(out));
