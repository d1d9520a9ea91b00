#!/usr/bin/env node
// mtcompute command-line client: one file, Node.js 18 or newer, no npm packages (the global
// fetch). It calls a running mtcompute server and prints exactly the bytes the server sent.
//
//   node cli.mjs run TOOL VERSION --input FILE|- --base-url URL [--api-key KEY]
//   node cli.mjs list [--json] --base-url URL
//   node cli.mjs describe TOOL VERSION --base-url URL
//
// --base-url may be left out when MTCOMPUTE_BASE_URL is set, and --api-key when
// MTCOMPUTE_API_KEY is; the key goes out as "Authorization: Bearer KEY" (a server started with
// --api-keys needs one to run a tool; listing and contracts are public). Exit status, as
// `mtcompute run`:
// 0 with a result (or the catalog, or a contract), 1 with an error envelope (printed on
// stdout), 2 on a usage error: bad arguments, an unreadable input, a server that cannot be
// reached or that does not answer as mtcompute does (one line on stderr).

import { readFileSync } from "node:fs";

const PROG = "cli.mjs";
const COMMANDS = ["run", "list", "describe"];
const TIMEOUT_MS = 60000;
const EXIT_OK = 0;
const EXIT_TOOL_ERROR = 1;
const EXIT_USAGE = 2;

const USAGE = {
  "": `usage: ${PROG} [-h] COMMAND ...`,
  run: `usage: ${PROG} run [-h] --input FILE [--base-url URL] [--api-key KEY] TOOL VERSION`,
  list: `usage: ${PROG} list [-h] [--json] [--base-url URL] [--api-key KEY]`,
  describe: `usage: ${PROG} describe [-h] [--base-url URL] [--api-key KEY] TOOL VERSION`,
};

const HELP = {
  "": `${USAGE[""]}

Call a running mtcompute server: run a tool, list the catalog, print a contract.

commands:
  run       run a tool on a JSON input and print the envelope
  list      list the tools and versions
  describe  print a tool's contract (JSON)

example:
  node ${PROG} run chrf-compute 1.0.0 --input input.json --base-url http://127.0.0.1:8000

--base-url defaults to $MTCOMPUTE_BASE_URL, --api-key to $MTCOMPUTE_API_KEY (sent as
"Authorization: Bearer KEY"; a server started with --api-keys needs it to run a tool).
Exit status: 0 with a result, 1 with an error envelope (printed on stdout), 2 on a usage
error (message on stderr).
`,
  run: `${USAGE.run}

Run TOOL at VERSION on the JSON input read from FILE ('-' for stdin) and print the envelope
the server sent: {"result":{...}} (exit 0) or {"error":{"code","message","path"}} (exit 1).

options:
  -h, --help            show this help message and exit
  --input FILE, -i FILE
                        JSON input file, '-' for stdin
  --base-url URL        the mtcompute server (default: $MTCOMPUTE_BASE_URL)
  --api-key KEY         the API key, sent as Authorization: Bearer KEY
                        (default: $MTCOMPUTE_API_KEY)
`,
  list: `${USAGE.list}

List every tool id, version and one-line description.

options:
  -h, --help      show this help message and exit
  --json          print the catalog JSON the server sent
  --base-url URL  the mtcompute server (default: $MTCOMPUTE_BASE_URL)
  --api-key KEY   the API key, sent as Authorization: Bearer KEY (default:
                  $MTCOMPUTE_API_KEY)
`,
  describe: `${USAGE.describe}

Print the machine-readable contract of TOOL at VERSION, as the server sent it.

options:
  -h, --help      show this help message and exit
  --base-url URL  the mtcompute server (default: $MTCOMPUTE_BASE_URL)
  --api-key KEY   the API key, sent as Authorization: Bearer KEY (default:
                  $MTCOMPUTE_API_KEY)
`,
};

// A usage error: one line on stderr, exit status 2.
class UsageError extends Error {
  constructor(message, command = "") {
    super(message);
    this.prog = command ? `${PROG} ${command}` : PROG;
  }
}

// Python's repr of a string, as the messages of the Python client quote values.
function repr(text) {
  return text.includes("'") && !text.includes('"') ? `"${text}"` : `'${text.replace(/'/g, "\\'")}'`;
}

// The options of each command: name -> [aliases, takes a value].
const OPTIONS = {
  run: { "--input": ["-i"], "--base-url": [], "--api-key": [] },
  list: { "--json": null, "--base-url": [], "--api-key": [] },
  describe: { "--base-url": [], "--api-key": [] },
};
const POSITIONALS = { run: ["TOOL", "VERSION"], list: [], describe: ["TOOL", "VERSION"] };

// Parse argv as `mtcompute run` (argparse) does; returns {command, positionals, options} or
// {help} for -h/--help.
function parse(argv) {
  if (argv.length === 0) {
    throw new UsageError("the following arguments are required: COMMAND");
  }
  if (argv[0] === "-h" || argv[0] === "--help") return { help: "" };
  if (argv[0].startsWith("-")) {
    throw new UsageError(`unrecognized arguments: ${argv.join(" ")}`);
  }
  const command = argv[0];
  if (!COMMANDS.includes(command)) {
    const choices = COMMANDS.map((c) => `'${c}'`).join(", ");
    throw new UsageError(`argument COMMAND: invalid choice: ${repr(command)} (choose from ${choices})`);
  }
  const known = OPTIONS[command];
  const aliases = {};
  for (const [name, alias] of Object.entries(known)) {
    aliases[name] = name;
    for (const short of alias || []) aliases[short] = name;
  }
  const options = {};
  const positionals = [];
  const extra = [];
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === "-h" || arg === "--help") return { help: command };
    if (arg.startsWith("-") && arg !== "-") {
      const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
      const flag = eq >= 0 ? arg.slice(0, eq) : arg;
      const name = aliases[flag];
      if (name === undefined) {
        extra.push(arg);
        continue;
      }
      const shown = [name, ...(known[name] || [])].join("/");
      if (known[name] === null) {
        if (eq >= 0) {
          throw new UsageError(`argument ${shown}: ignored explicit argument ${repr(arg.slice(eq + 1))}`, command);
        }
        options[name] = true;
      } else if (eq >= 0) {
        options[name] = arg.slice(eq + 1);
      } else if (i + 1 < args.length && (!args[i + 1].startsWith("-") || args[i + 1] === "-")) {
        options[name] = args[i + 1];
        i += 1;
      } else {
        throw new UsageError(`argument ${shown}: expected one argument`, command);
      }
    } else if (positionals.length < POSITIONALS[command].length) {
      positionals.push(arg);
    } else {
      extra.push(arg);
    }
  }
  const missing = POSITIONALS[command].slice(positionals.length);
  if (command === "run" && options["--input"] === undefined) missing.push("--input/-i");
  if (missing.length > 0) {
    throw new UsageError(`the following arguments are required: ${missing.join(", ")}`, command);
  }
  if (extra.length > 0) {
    throw new UsageError(`unrecognized arguments: ${extra.join(" ")}`);
  }
  const baseUrl = options["--base-url"] ?? process.env.MTCOMPUTE_BASE_URL ?? "";
  if (!baseUrl) {
    throw new UsageError(
      "the following arguments are required: --base-url (or set MTCOMPUTE_BASE_URL)",
      command,
    );
  }
  let parsed = null;
  try {
    parsed = new URL(baseUrl);
  } catch {
    parsed = null;
  }
  if (parsed === null || !["http:", "https:"].includes(parsed.protocol) || !parsed.host) {
    throw new UsageError(`--base-url must be an http(s) URL, got ${repr(baseUrl)}`, command);
  }
  // The key to send ("" for none), checked to fit an HTTP header; never echoed.
  const apiKey = String(options["--api-key"] ?? process.env.MTCOMPUTE_API_KEY ?? "").trim();
  if (/[^\x21-\x7e]/.test(apiKey)) {
    throw new UsageError(
      `--api-key (or MTCOMPUTE_API_KEY) must be printable ASCII without spaces (got ${apiKey.length} characters, not shown)`,
      command,
    );
  }
  return { command, positionals, options, apiKey, baseUrl: baseUrl.replace(/\/+$/, "") };
}

const STRERROR = {
  ENOENT: "No such file or directory",
  EACCES: "Permission denied",
  EISDIR: "Is a directory",
  ENOTDIR: "Not a directory",
  ELOOP: "Too many levels of symbolic links",
};

function readInput(name) {
  try {
    return readFileSync(name === "-" ? 0 : name);
  } catch (error) {
    const reason = STRERROR[error.code] || error.message;
    throw new UsageError(`cannot read --input ${name}: ${reason}`);
  }
}

// The status and body (bytes) of one request, with the key (if any) as a bearer token; a
// UsageError when the server cannot be reached.
async function request(baseUrl, path, apiKey, init = {}) {
  let response;
  const headers = { ...(init.headers || {}) };
  if (apiKey) headers.Authorization = `Bearer ${apiKey}`;
  try {
    response = await fetch(baseUrl + path, {
      ...init,
      headers,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
  } catch (error) {
    let reason = error && error.cause && error.cause.message ? error.cause.message : String(error && error.message);
    if (error && (error.name === "TimeoutError" || error.name === "AbortError")) reason = "timed out";
    throw new UsageError(`cannot reach ${baseUrl}: ${reason}`);
  }
}

function notMtcompute(url, body, what) {
  const head = body.subarray(0, 600).toString("utf8").slice(0, 200);
  return new UsageError(`${url} did not answer with ${what}: ${repr(head)}`);
}

function print(bytes) {
  process.stdout.write(Buffer.concat([bytes, Buffer.from("\n")]));
}

function toolPath(tool, version) {
  return `/v1/tools/${encodeURIComponent(tool)}/versions/${encodeURIComponent(version)}`;
}

async function run({ positionals: [tool, version], options, apiKey, baseUrl }) {
  const body = readInput(options["--input"]);
  const path = `${toolPath(tool, version)}/execute`;
  const answer = await request(baseUrl, path, apiKey, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
  });
  const text = answer.body.subarray(0, 16).toString("latin1");
  if (!text.startsWith('{"result"') && !text.startsWith('{"error"')) {
    throw notMtcompute(baseUrl + path, answer.body, "an mtcompute envelope");
  }
  print(answer.body);
  if (answer.status === 401) {
    // The envelope says what the server wants; say how to give it here.
    const what = apiKey ? "refused the API key given" : "needs an API key to run a tool";
    process.stderr.write(`${PROG} run: the server ${what}: pass --api-key KEY or set MTCOMPUTE_API_KEY\n`);
  }
  return text.startsWith('{"error"') ? EXIT_TOOL_ERROR : EXIT_OK;
}

async function list({ options, apiKey, baseUrl }) {
  const answer = await request(baseUrl, "/v1/tools", apiKey);
  let tools = null;
  try {
    tools = answer.status === 200 ? JSON.parse(answer.body.toString("utf8")).tools : null;
  } catch {
    tools = null;
  }
  if (!Array.isArray(tools)) {
    throw notMtcompute(`${baseUrl}/v1/tools`, answer.body, "an mtcompute catalog");
  }
  if (options["--json"]) {
    print(answer.body);
    return EXIT_OK;
  }
  const width = Math.max(0, ...tools.map((tool) => String(tool.id).length));
  const superseded = (t) => (t.superseded_by ? ` (superseded by ${t.superseded_by})` : "");
  const lines = tools.map(
    (t) => `${String(t.id).padEnd(width)}  ${t.version}  ${t.description}${superseded(t)}\n`,
  );
  process.stdout.write(lines.join(""));
  return EXIT_OK;
}

async function describe({ positionals: [tool, version], apiKey, baseUrl }) {
  const path = toolPath(tool, version);
  const answer = await request(baseUrl, path, apiKey);
  const text = answer.body.subarray(0, 16).toString("latin1");
  if (answer.status !== 200 ? !text.startsWith('{"error"') : !text.startsWith("{")) {
    throw notMtcompute(baseUrl + path, answer.body, "an mtcompute contract");
  }
  print(answer.body);
  return answer.status === 200 ? EXIT_OK : EXIT_TOOL_ERROR;
}

async function main(argv) {
  try {
    const args = parse(argv);
    if (args.help !== undefined) {
      process.stdout.write(HELP[args.help]);
      return EXIT_OK;
    }
    return await { run, list, describe }[args.command](args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.prog}: error: ${error.message}\n`);
    return EXIT_USAGE;
  }
}

process.exitCode = await main(process.argv.slice(2));
