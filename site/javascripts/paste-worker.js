// The paste box's engine, in a worker so that loading it never freezes the page: Pyodide
// (CPython in WebAssembly, vendored into the built site under engine/pyodide/) runs the
// diagnoser's own engine (engine/engine.zip, with the knowledge base prebuilt at build time).
// Nothing is sent anywhere: the worker only fetches the site's own files.
let paste = null;

async function start(engine) {
  const t0 = performance.now();
  const step = (n, key) => postMessage({ type: "progress", step: n, of: 4, key });
  step(1, "download");
  const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", engine).href);
  const zip = fetch(new URL("engine.zip", engine)).then((r) => {
    if (!r.ok) throw new Error(`engine.zip: HTTP ${r.status}`);
    return r.arrayBuffer();
  });
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", engine).href });
  const python = performance.now();
  step(2, "python");
  pyodide.unpackArchive(await zip, "zip", { extractDir: "/engine" });
  const unpacked = performance.now();
  step(3, "kb");
  pyodide.runPython("import sys; sys.path.insert(0, '/engine')");
  paste = pyodide.pyimport("paste");
  step(4, "ready");
  const end = performance.now();
  // how long each part took: Pyodide fetched and started, the engine unpacked, imported
  const steps = { pyodide: python - t0, unpack: unpacked - python, engine: end - unpacked };
  postMessage({ type: "ready", ms: end - t0, steps });
}

let ready = null;
onmessage = async (event) => {
  const msg = event.data;
  try {
    if (msg.type === "start") {
      ready = ready || start(msg.engine);
      await ready;
    } else if (msg.type === "diagnose") {
      await ready;
      const t0 = performance.now();
      const out = paste.answer(msg.text, msg.lang);
      postMessage({ type: "answer", id: msg.id, out, ms: performance.now() - t0 });
    }
  } catch (error) {
    postMessage({ type: "error", id: msg.id, message: String(error && error.message || error) });
  }
};
