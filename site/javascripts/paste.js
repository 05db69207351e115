// The paste box (home page and the Diagnose page): the diagnoser itself, run in this browser by
// paste-worker.js. The engine loads the first time someone pastes, types or presses the button;
// after that, each answer takes milliseconds and needs no network.
const WORDS = {
  en: {
    download: "Downloading the engine (Python in WebAssembly, about 15 MB, once)…",
    python: "Starting Python…",
    kb: "Loading the knowledge base…",
    ready: "Ready.",
    thinking: "Diagnosing…",
    empty: "Paste a traceback, a log or a sentence first.",
    missing: "The engine is not bundled with this build of the site (Pyodide was not fetched " +
      "when it was built): install the CLI and run `diagnoser` instead.",
    failed: "The engine could not start: ",
    none: "No entry in the knowledge base explains this text.",
    source: "Where PyTorch raises it",
    what: "What happened",
    where: "Where",
    why: "Why",
    fix: "Fix",
    read: "Read the whole entry: cause, fix and a reproduction",
    also: "Also possible",
    answered: (ms) => `Answered in ${ms} ms, in this browser.`,
    loaded: (s) => `Engine loaded in ${s} s.`,
  },
  zh: {
    download: "正在下载诊断引擎（WebAssembly 版 Python，约 15 MB，只需一次）…",
    python: "正在启动 Python…",
    kb: "正在加载知识库…",
    ready: "就绪。",
    thinking: "正在诊断…",
    empty: "请先粘贴报错、日志或一句描述。",
    missing: "这一版网站构建时没有打包诊断引擎（未能获取 Pyodide）：请安装命令行工具，运行 `diagnoser`。",
    failed: "诊断引擎无法启动：",
    none: "知识库里没有能解释这段文本的条目。",
    source: "PyTorch 在哪里抛出它",
    what: "发生了什么",
    where: "位置",
    why: "原因",
    fix: "修复",
    read: "阅读完整条目：原因、修复方法和复现脚本",
    also: "也可能是",
    answered: (ms) => `用时 ${ms} 毫秒，在本浏览器内完成。`,
    loaded: (s) => `引擎加载用时 ${s} 秒。`,
  },
};

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

// The KB's one-line texts use Markdown code spans: shown as <code>, everything else as text.
function inline(text) {
  const span = el("span");
  String(text).split(/(`[^`]+`)/).forEach((part) => {
    span.append(part.startsWith("`") && part.endsWith("`") && part.length > 1
      ? el("code", {}, part.slice(1, -1)) : part);
  });
  return span;
}

class PasteBox {
  constructor(box) {
    this.box = box;
    this.lang = box.dataset.lang === "zh" ? "zh" : "en";
    this.words = WORDS[this.lang];
    this.root = new URL(box.dataset.root || "./", location.href);
    this.engine = new URL("engine/", this.root);
    this.text = box.querySelector("textarea");
    this.button = box.querySelector("button");
    this.status = box.querySelector(".td-paste__status");
    this.progress = box.querySelector("progress");
    this.answer = box.querySelector(".td-paste__answer");
    this.worker = null;
    this.pending = new Map();
    this.next = 0;
    this.button.addEventListener("click", () => this.diagnose());
    this.text.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        this.diagnose();
      }
    });
    // Start loading as soon as someone pastes or types: the answer is then nearer.
    this.text.addEventListener("paste", () => this.start(), { once: true });
    this.text.addEventListener("input", () => this.start(), { once: true });
  }

  say(text) {
    this.status.textContent = text;
  }

  async start() {
    if (this.started) return this.started;
    this.started = (async () => {
      this.progress.hidden = false;
      this.progress.value = 0;
      this.say(this.words.download);
      const manifest = await fetch(new URL("manifest.json", this.engine))
        .then((r) => (r.ok ? r.json() : { bundled: false }))
        .catch(() => ({ bundled: false }));
      if (!manifest.bundled) {
        this.progress.hidden = true;
        this.box.dataset.state = "missing";
        throw new Error(this.words.missing);
      }
      const worker = new Worker(new URL("paste-worker.js", this.box.dataset.script),
        { type: "module" });
      this.worker = worker;
      return await new Promise((resolve, reject) => {
        worker.onmessage = (event) => {
          const msg = event.data;
          if (msg.type === "progress") {
            this.progress.value = msg.step / msg.of;
            this.say(this.words[msg.key]);
          } else if (msg.type === "ready") {
            this.progress.hidden = true;
            this.box.dataset.state = "ready";
            this.box.dataset.loadMs = String(Math.round(msg.ms));
            this.box.dataset.loadSteps = JSON.stringify(msg.steps);
            this.say(this.words.loaded((msg.ms / 1000).toFixed(1)));
            resolve();
          } else if (msg.type === "answer" || msg.type === "error") {
            const waiting = this.pending.get(msg.id);
            if (waiting) {
              this.pending.delete(msg.id);
              msg.type === "answer" ? waiting.resolve(msg) : waiting.reject(new Error(msg.message));
            } else if (msg.type === "error") {
              this.progress.hidden = true;
              this.box.dataset.state = "failed";
              reject(new Error(this.words.failed + msg.message));
            }
          }
        };
        worker.onerror = (e) => {
          this.box.dataset.state = "failed";
          reject(new Error(this.words.failed + (e.message || "worker error")));
        };
        worker.postMessage({ type: "start", engine: this.engine.href });
      });
    })();
    return this.started;
  }

  // The report `diagnoser --json --lang LANG` prints for `text`, and each match's one-line
  // cause and fix: {report: JSON text, entries: {id: {cause, fix}}, ms}.
  async run(text) {
    await this.start();
    const id = this.next++;
    const answer = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.worker.postMessage({ type: "diagnose", id, text, lang: this.lang });
    const msg = await answer;
    const out = JSON.parse(msg.out);
    return { report: out.report, entries: out.entries, ms: msg.ms };
  }

  async diagnose() {
    const text = this.text.value;
    if (!text.trim()) {
      this.say(this.words.empty);
      return;
    }
    this.button.disabled = true;
    try {
      if (this.box.dataset.state === "ready") this.say(this.words.thinking);
      const t0 = performance.now();
      const { report, entries } = await this.run(text);
      this.show(JSON.parse(report), entries);
      const ms = performance.now() - t0;
      this.say(this.words.answered(Math.round(ms)));
      // For tests and tools: the last answer's JSON (what `diagnoser --json` prints) and time.
      this.last = { report, ms };
      this.box.dataset.answers = String(Number(this.box.dataset.answers || 0) + 1);
    } catch (error) {
      this.say(error.message);
      this.box.dataset.errors = String(Number(this.box.dataset.errors || 0) + 1);
    } finally {
      this.button.disabled = false;
    }
  }

  entryUrl(id) {
    return new URL(`${this.lang === "zh" ? "zh/" : ""}entries/${id}/`, this.root).href;
  }

  show(report, entries) {
    const w = this.words;
    const out = [];
    const [best, ...others] = report.matches;
    if (!best) {
      out.push(el("p", { class: "td-paste__none" }, w.none));
      if (report.source && report.source.sites.length) {
        const list = el("ul");
        for (const s of report.source.sites) {
          const what = [s.op, s.condition].filter(Boolean).join(" · ");
          list.append(el("li", {}, el("code", {}, `${s.file}:${s.line}`),
            ` ${s.function || ""}${what ? " — " + what : ""}`));
        }
        out.push(el("h3", {}, w.source), list);
      }
    } else {
      const link = this.entryUrl(best.id);
      out.push(el("h3", { class: "td-paste__title" }, el("a", { href: link }, best.title)));
      const facts = el("dl");
      const row = (name, value) => value && facts.append(el("dt", {}, name), el("dd", {}, value));
      row(w.what, best.explanation ? inline(best.explanation) : best.message &&
        el("code", {}, best.message));
      if (best.where) {
        row(w.where, el("span", {}, el("code", {}, `${best.where.file}:${best.where.line}`),
          best.where.source ? el("span", {}, " ", el("code", {}, best.where.source)) : null));
      }
      const texts = entries[best.id] || {};
      row(w.why, texts.cause && inline(texts.cause));
      row(w.fix, texts.fix && inline(texts.fix));
      out.push(facts);
      for (const note of best.notes || []) out.push(el("p", { class: "td-paste__note" }, inline(note)));
      out.push(el("p", {}, el("a", { href: link, class: "td-paste__read" }, w.read + " →")));
      if (others.length) {
        const list = el("ul");
        for (const m of others) list.append(el("li", {}, el("a", { href: this.entryUrl(m.id) }, m.title)));
        out.push(el("p", {}, w.also), list);
      }
    }
    this.answer.replaceChildren(...out);
  }
}

const script = new URL(".", import.meta.url).href;
for (const box of document.querySelectorAll(".td-paste")) {
  box.dataset.script = script;
  box.pasteBox = new PasteBox(box);
}
