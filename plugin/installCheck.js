// What the plugin checks before it loads anything else (Node's own modules only), and how
// it reports a problem: a damaged installation gets one clear line, never a stack trace.
//
// The engine shows nothing a plugin prints before its port, and a plugin that dies before
// the engine is done with it is reported as "exited prematurely. This is *always* a bug in
// the provider", with everything it printed (sdk/go/common/resource/plugin/plugin.go,
// 3.259). So a plugin that cannot work serves Pulumi's provider protocol anyway, with
// Node's own HTTP/2 server (its modules may be the missing part), and answers every call
// with the problem: the engine prints that one line as the call's error. It exits once the
// engine is done with it (`exitWhenDone`), whether or not the engine stops it.
"use strict";
const { Buffer } = require("node:buffer");
const crypto = require("node:crypto");
const fs = require("node:fs");
const http2 = require("node:http2");
const path = require("node:path");
const { clearTimeout, setInterval, setTimeout } = require("node:timers");

const NAME = "discord-commands";

/** The version the engine installed the plugin as: its folder is `resource-<name>-v<version>`. */
function installedVersion(pluginRoot) {
  const match = /^resource-discord-commands-v(.+)$/.exec(path.basename(pluginRoot));
  return match ? match[1] : undefined;
}

/** How to get a good copy, for where the plugin is. */
function remedy(pluginRoot) {
  const installed = installedVersion(pluginRoot);
  return installed === undefined
    ? `reinstall the package that holds it (npm install)`
    : `remove it (pulumi plugin rm resource ${NAME} ${installed} --yes) and run again: the engine installs it anew`;
}

/** The first line of a module-loading error: "Cannot find module 'x'". */
function missingModuleProblem(pluginRoot, err) {
  const first = String((err && err.message) || err).split("\n")[0];
  return `${NAME}: the plugin in ${pluginRoot} is incomplete (${first}; a damaged or partial archive): ${remedy(pluginRoot)}.`;
}

/**
 * The files of an installed archive against the digests it was released with
 * (plugin/files.sha256), once: a marker beside them records a verified installation.
 */
function damagedFile(pluginRoot) {
  const manifest = path.join(pluginRoot, "plugin", "files.sha256");
  if (!fs.existsSync(manifest)) return undefined; // the npm package, a checkout
  const listed = fs.readFileSync(manifest, "utf8");
  const marker = path.join(pluginRoot, ".files-verified");
  const stamp = crypto.createHash("sha256").update(listed).digest("hex");
  if (fs.existsSync(marker) && fs.readFileSync(marker, "utf8") === stamp) return undefined;
  for (const line of listed.split("\n").filter(Boolean)) {
    const [digest, name] = [line.slice(0, 64), line.slice(66)];
    const file = path.join(pluginRoot, name);
    if (!fs.existsSync(file)) {
      return `${NAME}: the plugin in ${pluginRoot} is incomplete (${name} is missing; a damaged or partial archive): ${remedy(pluginRoot)}.`;
    }
    if (crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex") !== digest) {
      return `${NAME}: the plugin in ${pluginRoot} is damaged (${name} is not the file it was released with; a corrupted archive): ${remedy(pluginRoot)}.`;
    }
  }
  try {
    fs.writeFileSync(marker, stamp);
  } catch {
    // A read-only installation is verified again at its next start.
  }
  return undefined;
}

/**
 * The problem with the plugin installed in `pluginRoot` (the folder of its package.json),
 * as one line, or undefined: its version is not the one the engine installed it as (an
 * archive published under the wrong version), a file is not the one released (a
 * corrupted archive) or missing, or one of its modules is missing.
 */
function installProblem(pluginRoot) {
  let pkg;
  try {
    pkg = JSON.parse(fs.readFileSync(path.join(pluginRoot, "package.json"), "utf8"));
  } catch (err) {
    return missingModuleProblem(pluginRoot, err);
  }
  const installed = installedVersion(pluginRoot);
  if (installed !== undefined && installed !== pkg.version) {
    return (
      `${NAME}: the plugin installed as version ${installed} is version ${pkg.version} ` +
      `(its archive was published under the wrong version): ${remedy(pluginRoot)}.`
    );
  }
  const damaged = damagedFile(pluginRoot);
  if (damaged !== undefined) return damaged;
  for (const name of Object.keys(pkg.dependencies || {})) {
    try {
      require.resolve(name, { paths: [pluginRoot] });
    } catch (err) {
      return missingModuleProblem(pluginRoot, err);
    }
  }
  return undefined;
}

// gRPC status codes (grpc/doc/statuscodes.md).
const OK = 0;
const FAILED_PRECONDITION = 9;
const UNIMPLEMENTED = 12;

const CANCEL = "/pulumirpc.ResourceProvider/Cancel";

/** The status a call gets: Handshake is optional (the engine falls back), Cancel is a shutdown. */
function statusFor(method) {
  if (method === "/pulumirpc.ResourceProvider/Handshake") return UNIMPLEMENTED;
  if (method === CANCEL) return OK;
  return FAILED_PRECONDITION;
}

/**
 * When the engine is done with a plugin that cannot work, the plugin exits: the engine
 * does not always stop it (a provider that fails to load is dropped without its Close,
 * and its process outlives the CLI, reparented to init), and each such process holds
 * 50-70 MB. Done means: the Cancel it sends before closing was answered; its connection
 * closed after a call was answered; its process went away (this one's parent changed); or
 * no call came for `idleMs` after the last answer (the engine stops at the first error).
 */
function exitWhenDone(server, idleMs) {
  const parent = process.ppid;
  let idle;
  let sessions = 0;
  let answered = false;
  const done = () => process.exit(0);
  const watch = setInterval(() => process.ppid !== parent && done(), 500);
  watch.unref();
  server.on("session", (session) => {
    sessions += 1;
    session.on("close", () => {
      sessions -= 1;
      if (answered && sessions === 0) done();
    });
  });
  return {
    /** A call began: not idle while it runs. */
    called: () => clearTimeout(idle),
    /** A call was answered (`last`: Cancel, after which the engine sends nothing more). */
    answeredCall(last) {
      answered = true;
      clearTimeout(idle);
      idle = setTimeout(done, last ? 100 : idleMs);
    },
  };
}

/**
 * Serves Pulumi's provider protocol on loopback, every call answered with `problem`, and
 * exits once the engine is done with it (`exitWhenDone`).
 */
function serveRefusal(problem, { idleMs = 30_000 } = {}) {
  const server = http2.createServer();
  const lifetime = exitWhenDone(server, idleMs);
  server.on("stream", (stream, headers) => {
    const method = String(headers[":path"]);
    const status = statusFor(method);
    lifetime.called();
    stream.on("error", () => {});
    stream.on("close", () => lifetime.answeredCall(method === CANCEL));
    stream.resume();
    stream.on("end", () => {
      const head = { ":status": 200, "content-type": "application/grpc" };
      if (status !== OK) {
        // A trailers-only answer: the status and its message in the one header block.
        const message = encodeURIComponent(problem);
        stream.respond(
          { ...head, "grpc-status": status, "grpc-message": message },
          { endStream: true },
        );
        return;
      }
      stream.respond(head, { waitForTrailers: true });
      stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": OK }));
      // One empty message (google.protobuf.Empty): no compression, length 0.
      stream.end(Buffer.alloc(5));
    });
  });
  server.listen(0, "127.0.0.1", () => {
    // The port is what the engine reads first (as a string: a number would be colourized).
    console.log(String(server.address().port));
  });
}

module.exports = { installProblem, missingModuleProblem, serveRefusal };
