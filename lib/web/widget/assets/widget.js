// Generated from lib/web/widget/src/ by `npm run build:widget`: edit the sources, not this file.
"use strict";
(() => {
  // lib/web/widget/src/post.js
  async function post(base, path, body) {
    let response;
    try {
      response = await fetch(`${base}${path}`, { method: "POST", mode: "cors", credentials: "omit", headers: { "content-type": "text/plain" }, body: JSON.stringify(body) });
    } catch {
      throw { code: "network" };
    }
    const json = await response.json().catch(() => ({}));
    if (!response.ok) throw { code: json.error?.code || "unavailable", message: json.error?.message, waitSeconds: json.error?.details?.[0]?.retryAfterSeconds };
    return json;
  }

  // lib/web/widget/src/text.js
  var STYLES = `
:host { all: initial; }
.wrap { all: initial; position: fixed; bottom: 20px; z-index: 2147483000; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
--bg: #ffffff; --fg: #111827; --muted: #4b5563; --line: #d1d5db; --accent: --accent-value; --agent-bg: #f3f4f6; color: var(--fg); }
.wrap.right { right: 20px; } .wrap.left { left: 20px; }
.theme-dark { --bg: #111827; --fg: #f9fafb; --muted: #d1d5db; --line: #374151; --agent-bg: #1f2937; }
@media (prefers-color-scheme: dark) { .theme-auto { --bg: #111827; --fg: #f9fafb; --muted: #d1d5db; --line: #374151; --agent-bg: #1f2937; } }
button { font: inherit; cursor: pointer; border-radius: 8px; border: 1px solid var(--line); padding: 8px 14px; background: var(--bg); color: var(--fg); }
button:focus-visible, .log:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
button:disabled { opacity: .6; cursor: default; }
.launcher { width: 56px; height: 56px; border-radius: 50%; background: var(--accent); color: #fff; border: 0; display: inline-flex; align-items: center; justify-content: center; box-shadow: 0 4px 14px rgba(0,0,0,.25); }
.panel { position: absolute; bottom: 68px; width: min(360px, calc(100vw - 40px)); max-height: min(560px, calc(100vh - 110px)); display: flex; flex-direction: column;
gap: 8px; padding: 14px; box-sizing: border-box; background: var(--bg); border: 1px solid var(--line); border-radius: 14px; box-shadow: 0 10px 30px rgba(0,0,0,.25); }
.right .panel { right: 0; } .left .panel { left: 0; }
.panel[hidden] { display: none; }
.header { display: flex; align-items: center; justify-content: space-between; gap: 8px; }
h2 { margin: 0; font-size: 17px; }
.close { padding: 2px 10px; font-size: 20px; line-height: 1.2; }
.status { margin: 0; color: var(--muted); font-size: 14px; }
.problem { margin: 0; padding: 8px 10px; border-radius: 8px; background: #fef2f2; color: #991b1b; font-size: 14px; }
.problem[hidden] { display: none; }
.stand-ins { margin: 0; padding: 4px 10px; border-radius: 8px; border: 1px solid #b45309; background: #fffbeb; color: #111827; font-size: 13px; line-height: 1.35; }
.stand-ins[hidden] { display: none; }
.stand-ins p { margin: 0; }
.stand-ins-line { display: inline; }
.stand-ins-more { display: inline; }
.stand-ins-more[open] { display: block; margin-top: 4px; }
.stand-ins summary { display: inline; cursor: pointer; color: #92400e; text-decoration: underline; margin-left: 4px; white-space: nowrap; }
.stand-ins summary::-webkit-details-marker { display: none; }
.stand-ins summary:focus-visible { outline: 3px solid var(--accent); outline-offset: 1px; }
.stand-ins-text { margin-top: 4px; }
.log { flex: 1; min-height: 120px; overflow-y: auto; display: flex; flex-direction: column; gap: 6px; padding: 4px; }
.line { margin: 0; padding: 6px 10px; border-radius: 10px; max-width: 85%; }
.line.agent { background: var(--agent-bg); align-self: flex-start; }
.line.user { background: var(--accent); color: #fff; align-self: flex-end; }
.line[data-final="false"] { opacity: .8; }
.who { font-weight: 600; }
.controls { display: flex; gap: 8px; flex-wrap: wrap; }
.controls [hidden], .controls[hidden] { display: none; }
.call { background: var(--accent); color: #fff; border-color: var(--accent); flex: 1; }
.hangup { background: #b91c1c; color: #fff; border-color: #b91c1c; }
.compose { display: flex; gap: 8px; margin: 0; }
.compose[hidden] { display: none; }
textarea { flex: 1; font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--muted); border-radius: 8px; padding: 7px 10px; resize: none; min-height: 22px; max-height: 96px; }
textarea:focus-visible { outline: 3px solid var(--accent); outline-offset: 1px; }
.send { background: var(--accent); color: #fff; border-color: var(--accent); }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;
  var STAND_IN_NOUNS = { stt: "speech recognition", llm: "the model", tts: "the voice", telephony: "phone calls" };
  var END_REASONS = {
    customer_hangup: "You ended the call.",
    agent_hangup: "The agent ended the call.",
    max_duration: "The call reached its time limit.",
    silence_timeout: "The call ended after a long silence.",
    ended_by_api: "The call was ended.",
    error: "The call ended because of a problem on our side.",
    connection_lost: "The connection was lost. Start a new call to talk again."
  };
  var PROBLEMS = {
    origin_not_allowed: "This assistant is not available on this site.",
    full_key_in_page: "This assistant is not set up correctly (the site uses the wrong kind of key).",
    agent_not_allowed: "This assistant is not available on this site.",
    unauthorized: "This assistant is not set up correctly (its key is not valid).",
    not_found: "This assistant is not available.",
    insufficient_credits: "The agent is unavailable right now. Please try again later.",
    // The wait is the API's own (details[0].retryAfterSeconds): a place frees by then at the latest.
    rate_limited: (seconds) => `Too many conversations right now. Please try again ${!(seconds > 1) ? "in a moment" : seconds < 90 ? `in ${seconds} seconds` : `in about ${Math.round(seconds / 60)} minutes`}.`,
    unavailable: "The agent is unavailable right now. Please try again in a few minutes.",
    network: "The assistant could not be reached. Check your connection and try again.",
    message_too_long: "That message is too long. Please shorten it.",
    reply_failed: "Sorry, the agent could not answer that. Please try again."
  };
  var CHAT_ENDED = { agent_hangup: "The agent ended the chat.", silence_timeout: "The chat ended after a long pause.", max_duration: "The chat reached its time limit." };

  // lib/web/widget/src/chat.js
  function createChat(ui, config, base, isCallActive) {
    const chatOn = config.mode !== "voice";
    const STORE_KEY = `voice-agent-widget:chat:${config.agentId}`;
    const chat = { socket: void 0, session: void 0, ready: false, connecting: false, outbox: [] };
    const saved = () => {
      try {
        return JSON.parse(sessionStorage.getItem(STORE_KEY) || "null");
      } catch {
        return null;
      }
    };
    const remember = (session) => {
      try {
        if (session) sessionStorage.setItem(STORE_KEY, JSON.stringify(session));
        else sessionStorage.removeItem(STORE_KEY);
      } catch {
      }
    };
    const chatBusy = () => isCallActive();
    function chatLine(role, text, turn) {
      const line = turn !== void 0 && ui.log.querySelector(`p[data-turn="${turn}"]`) || ui.newLine(role, turn);
      line.dataset.chat = "";
      if (text !== void 0) line.querySelector(".words").textContent = text;
      ui.log.scrollTop = ui.log.scrollHeight;
      return line;
    }
    function sendMessage(text) {
      const message = String(text ?? "").trim();
      if (!message || !chatOn) return;
      ui.problem.hidden = true;
      chatLine("user", message).dataset.pending = "";
      ui.emit("message", { role: "user", text: message });
      chat.outbox.push(message);
      if (chat.ready) flush();
      else void openChat();
    }
    function flush() {
      while (chat.outbox.length > 0) chat.socket.send(JSON.stringify({ type: "message", text: chat.outbox.shift() }));
    }
    function dropPending(all) {
      const pending = [...ui.log.querySelectorAll("p[data-pending]")];
      for (const line of all ? pending : pending.slice(-1)) line.remove();
    }
    async function openChat() {
      if (chat.socket || chat.connecting) return;
      chat.connecting = true;
      let session = chat.session || saved();
      if (!session) {
        if (!chatBusy()) ui.setStatus("connecting", "Connecting…");
        try {
          session = await post(base, "/widget/chat", { apiKey: config.apiKey, agentId: config.agentId });
        } catch (error) {
          chat.connecting = false;
          chat.outbox = [];
          dropPending(true);
          ui.setStatus("error", "The chat could not start.");
          ui.showProblem(error.code || "unavailable", error.message, false, error.waitSeconds);
          return;
        }
        remember(session);
      }
      chat.session = session;
      chat.connecting = false;
      ui.showStandIns(session.standIns);
      const socket = new WebSocket(session.chatUrl);
      chat.socket = socket;
      socket.onopen = () => socket.send(JSON.stringify({ type: "hello", credential: session.credential }));
      socket.onmessage = (event) => {
        if (chat.socket === socket) onChat(JSON.parse(event.data));
      };
      socket.onclose = () => {
        if (chat.socket !== socket) return;
        chat.socket = void 0;
        chat.ready = false;
      };
    }
    function forgetChat() {
      remember(null);
      const socket = chat.socket;
      Object.assign(chat, { socket: void 0, session: void 0, ready: false });
      if (socket && socket.readyState <= WebSocket.OPEN) socket.close(1e3);
    }
    function onChat(m) {
      switch (m.type) {
        case "ready": {
          chat.ready = true;
          ui.agentName = m.agentName || ui.agentName;
          for (const line of ui.log.querySelectorAll("p[data-chat]:not([data-pending])")) line.remove();
          const first = ui.log.querySelector("p[data-pending]");
          for (const line of m.messages || []) ui.log.insertBefore(chatLine(line.role === "user" ? "user" : "agent", String(line.text)), first);
          ui.log.scrollTop = ui.log.scrollHeight;
          if (!m.resumed) ui.emit("chat-start", { chatId: m.chatId });
          if (!chatBusy()) ui.setStatus("ready", `Chatting with ${ui.agentName}.`);
          flush();
          break;
        }
        case "agent":
          ui.agentName = m.agentName || ui.agentName;
          if (!chatBusy()) ui.setStatus("ready", `Chatting with ${ui.agentName}.`);
          break;
        case "delta": {
          const line = chatLine("agent", void 0, m.turn);
          line.dataset.final = "false";
          line.querySelector(".words").textContent += String(m.text ?? "");
          ui.stats.chatDeltas += 1;
          ui.log.setAttribute("aria-busy", "true");
          break;
        }
        case "reply": {
          for (const line2 of ui.log.querySelectorAll("p[data-pending]")) delete line2.dataset.pending;
          const line = chatLine("agent", String(m.text ?? ""), m.turn);
          line.dataset.final = "true";
          ui.log.setAttribute("aria-busy", "false");
          if (m.text) ui.emit("message", { role: "agent", text: String(m.text) });
          else line.remove();
          break;
        }
        case "state":
          ui.stats.chatState = String(m.state);
          if (!chatBusy()) ui.setStatus(m.state === "thinking" ? "typing" : "ready", m.state === "thinking" ? `${ui.agentName} is typing…` : `Chatting with ${ui.agentName}.`);
          break;
        case "ended":
          forgetChat();
          if (!chatBusy()) ui.setStatus("ended", CHAT_ENDED[m.reason] || "The chat has ended.");
          ui.emit("chat-end", { reason: m.reason });
          break;
        case "error": {
          const code = String(m.code ?? "unavailable");
          ui.log.setAttribute("aria-busy", "false");
          if (["bad_credential", "ended", "already_connected", "replaced"].includes(code)) {
            forgetChat();
            if (chat.outbox.length > 0) void openChat();
            break;
          }
          if (code !== "reply_failed") dropPending(false);
          ui.showProblem(code, m.message, code !== "insufficient_credits");
          break;
        }
        default:
          break;
      }
    }
    return { chat, sendMessage, openChat, saved };
  }

  // lib/web/widget/src/panel.js
  function createPanel(config) {
    const voiceOn = config.mode !== "chat";
    const chatOn = config.mode !== "voice";
    const host = document.createElement("div");
    host.setAttribute("data-voice-agent-widget", "");
    const root = host.attachShadow({ mode: "open" });
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLES.replace(/--accent-value/g, config.accent));
    root.adoptedStyleSheets = [sheet];
    const el = (tag, attrs = {}, text) => {
      const node = document.createElement(tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      if (text !== void 0) node.textContent = text;
      return node;
    };
    const ICON_PATHS = config.mode === "chat" ? ["M4 5h16v11H9l-5 4z"] : ["M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3z", "M5 11a7 7 0 0 0 14 0", "M12 18v3"];
    const launcherIcon = () => {
      const ns = "http://www.w3.org/2000/svg";
      const svg = document.createElementNS(ns, "svg");
      for (const [k, v] of Object.entries({ viewBox: "0 0 24 24", width: "26", height: "26", "aria-hidden": "true", focusable: "false", fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round" })) svg.setAttribute(k, v);
      for (const d of ICON_PATHS) {
        const path = document.createElementNS(ns, "path");
        path.setAttribute("d", d);
        svg.append(path);
      }
      return svg;
    };
    const wrap = el("div", { class: `wrap ${config.position} theme-${config.theme}` });
    const launcher = el("button", { class: "launcher", type: "button", "aria-expanded": "false", "aria-controls": "panel", "aria-label": config.title });
    launcher.append(launcherIcon());
    const panel = el("div", { class: "panel", id: "panel", role: "dialog", "aria-modal": "true", "aria-labelledby": "title", hidden: "" });
    const header = el("div", { class: "header" });
    const close = el("button", { class: "close", type: "button", "aria-label": "Close" }, "×");
    header.append(el("h2", { id: "title" }, config.title), close);
    const status = el("p", { class: "status", role: "status" }, "Ready.");
    const log = el("div", { class: "log", role: "log", "aria-live": "polite", "aria-label": "Conversation", tabindex: "0" });
    const problem = el("p", { class: "problem", role: "alert", hidden: "" });
    const standIns = el("div", { class: "stand-ins", hidden: "" });
    const standInsLine = el("p", { class: "stand-ins-line" });
    const standInsMore = el("details", { class: "stand-ins-more" });
    const standInsText = el("p", { class: "stand-ins-text" });
    standInsMore.append(el("summary", {}, "Details"), standInsText);
    standIns.append(standInsLine, standInsMore);
    const controls = el("div", { class: "controls" });
    const callButton = el("button", { class: "call", type: "button" }, "Start a call");
    const muteButton = el("button", { class: "mute", type: "button", "aria-pressed": "false", hidden: "" }, "Mute");
    const hangupButton = el("button", { class: "hangup", type: "button", hidden: "" }, "Hang up");
    controls.append(callButton, muteButton, hangupButton);
    controls.hidden = !voiceOn;
    const compose = el("form", { class: "compose", hidden: "" });
    const input = el("textarea", { class: "input", id: "message", rows: "1", maxlength: "2000", placeholder: "Type a message…", autocomplete: "off" });
    const sendButton = el("button", { class: "send", type: "submit" }, "Send");
    compose.append(el("label", { class: "sr-only", for: "message" }, "Message"), input, sendButton);
    compose.hidden = !chatOn;
    panel.append(header, status, standIns, problem, log, compose, controls);
    wrap.append(launcher, panel);
    root.append(wrap);
    const listeners = /* @__PURE__ */ new Map();
    const emit = (name, detail) => {
      for (const fn of listeners.get(name) ?? []) {
        try {
          fn(detail);
        } catch (error) {
          setTimeout(() => {
            throw error;
          });
        }
      }
    };
    const stats = { state: "idle", agentState: "", samplesPlayed: 0, outputRms: 0, framesSent: 0, marksEchoed: 0, chatState: "", chatDeltas: 0 };
    function setStatus(state, text) {
      stats.state = state;
      wrap.dataset.state = state;
      status.textContent = text;
    }
    function showProblem(code, message, own = false, waitSeconds = void 0) {
      const known = typeof PROBLEMS[code] === "function" ? PROBLEMS[code](waitSeconds) : PROBLEMS[code];
      problem.textContent = own && message || known || message || "Something went wrong. Please try again.";
      problem.dataset.code = code;
      problem.hidden = false;
      emit("error", { code, message: problem.textContent });
    }
    function showStandIns(notice) {
      if (!notice || typeof notice.message !== "string") return;
      const parts = Array.isArray(notice.parts) ? notice.parts : [];
      const named = [...new Set(parts.map((p) => STAND_IN_NOUNS[p.capability]).filter(Boolean))];
      const list = named.length > 1 ? `${named.slice(0, -1).join(", ")} and ${named.at(-1)}` : named[0];
      standInsLine.textContent = list ? `Simulated locally: ${list}.` : "Simulated locally.";
      standInsText.textContent = notice.message;
      standIns.hidden = false;
    }
    function addLine(role, text, final = true) {
      const line = log.querySelector(`p[data-role="${role}"][data-final="false"]:not([data-turn])`) || newLine(role);
      line.dataset.final = String(final);
      line.querySelector(".words").textContent = text;
      log.scrollTop = log.scrollHeight;
      if (final) emit("message", { role, text });
    }
    function newLine(role, turn) {
      const line = el("p", { class: `line ${role}`, "data-role": role });
      if (turn !== void 0) line.dataset.turn = String(turn);
      line.append(el("span", { class: "who" }, role === "agent" ? `${ui.agentName}: ` : "You: "), el("span", { class: "words" }));
      log.append(line);
      while (log.children.length > 100) log.firstElementChild.remove();
      return line;
    }
    let lastFocus;
    function open() {
      if (!panel.hidden) return;
      lastFocus = document.activeElement;
      panel.hidden = false;
      launcher.setAttribute("aria-expanded", "true");
      if (config.greeting && log.children.length === 0) addLine("agent", config.greeting);
      (chatOn ? input : callButton.hidden ? close : callButton).focus();
      emit("open");
    }
    function closePanel() {
      if (panel.hidden) return;
      panel.hidden = true;
      launcher.setAttribute("aria-expanded", "false");
      (lastFocus && lastFocus !== document.body && lastFocus !== host ? lastFocus : launcher).focus();
      emit("close");
    }
    function trapFocus(event) {
      if (event.key === "Escape") {
        event.preventDefault();
        closePanel();
        return;
      }
      if (event.key !== "Tab") return;
      const focusable = [...panel.querySelectorAll('button, summary, [tabindex="0"], textarea, input')].filter((n) => !n.closest("[hidden]") && !n.disabled);
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (event.shiftKey && root.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && root.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
    const ui = {
      host,
      root,
      wrap,
      launcher,
      panel,
      close,
      status,
      standIns,
      showStandIns,
      log,
      problem,
      callButton,
      muteButton,
      hangupButton,
      compose,
      input,
      sendButton,
      el,
      listeners,
      emit,
      stats,
      setStatus,
      showProblem,
      addLine,
      newLine,
      open,
      closePanel,
      trapFocus,
      /** The agent's name as the session gave it: the conversation's lines are signed with it. */
      agentName: "Agent"
    };
    return ui;
  }

  // lib/web/widget/src/voice.js
  function createVoice(ui, config, base) {
    const call = { client: void 0, socket: void 0, audio: void 0, stream: void 0, admitted: false, muted: false, active: false };
    async function startCall() {
      if (call.active) return;
      ui.open();
      call.active = true;
      ui.problem.hidden = true;
      ui.callButton.disabled = true;
      ui.setStatus("connecting", "Connecting…");
      try {
        const [media, client] = await Promise.all([import(`${base}/meeting/assets/meeting-media.js`), import(`${base}/meeting/assets/web-call.js`)]);
        call.client = client;
        const missing = media.missingFeatures();
        if (missing.length > 0) throw { code: "unsupported", message: `Voice calls need ${missing.join(", ")} in this browser.` };
        try {
          call.stream = await media.openMicrophone();
        } catch (error) {
          throw { code: "microphone", message: media.deviceProblem(error).join(": ") };
        }
        const session = await post(base, "/widget/session", { apiKey: config.apiKey, agentId: config.agentId });
        ui.agentName = session.agentName || ui.agentName;
        ui.showStandIns(session.standIns);
        call.audio = new media.AudioEngine();
        call.audio.onMark = (name) => {
          ui.stats.marksEchoed += 1;
          send({ type: "mark", name });
        };
        call.audio.onStats = (played, rms) => {
          ui.stats.samplesPlayed = played;
          ui.stats.outputRms = rms;
        };
        await call.audio.start(call.stream, onFrame);
        connect(session);
      } catch (error) {
        endCall();
        ui.setStatus("error", "The call could not start.");
        ui.showProblem(error.code || "unavailable", error.message, false, error.waitSeconds);
      }
    }
    function onFrame(frame) {
      const socket = call.socket;
      if (call.admitted && !call.muted && socket && socket.readyState === WebSocket.OPEN) {
        socket.send(frame);
        ui.stats.framesSent += 1;
      }
    }
    const send = (message) => call.client?.sendControl(call.socket, message);
    function connect(session) {
      call.socket = call.client.openCallSocket(session, call.audio, {
        current: (socket) => socket === call.socket,
        onMessage: (message) => onControl(message, session),
        // Closed without `ended` or `error`: the widget does not rejoin (a new call is one click away).
        onClose: () => finishCall("connection_lost")
      });
    }
    function onControl(message, session) {
      switch (message.type) {
        case "ready":
          call.admitted = true;
          ui.agentName = message.agentName || ui.agentName;
          ui.setStatus("live", `Live with ${ui.agentName}.`);
          ui.callButton.hidden = true;
          ui.muteButton.hidden = false;
          ui.hangupButton.hidden = false;
          ui.hangupButton.focus();
          ui.emit("call-start", { callId: session.callId });
          break;
        // A handoff (docs/handoffs.md): lines from here carry the new agent's name.
        case "agent":
          ui.agentName = message.agentName || ui.agentName;
          if (call.admitted) ui.setStatus("live", `Live with ${ui.agentName}.`);
          break;
        case "caption":
          ui.addLine(message.role === "agent" ? "agent" : "user", String(message.text ?? ""), message.final === true);
          break;
        case "state":
          ui.stats.agentState = String(message.state);
          if (call.admitted) ui.setStatus("live", `Live: ${ui.agentName} is ${message.state}.`);
          break;
        case "ended":
          finishCall(String(message.reason ?? "error"));
          break;
        case "error":
          finishCall(void 0, String(message.code ?? "unavailable"), message.message);
          break;
        default:
          break;
      }
    }
    function endCall() {
      const socket = call.socket;
      call.socket = void 0;
      if (socket && socket.readyState <= WebSocket.OPEN) socket.close(1e3);
      if (call.stream) for (const track of call.stream.getTracks()) track.stop();
      if (call.audio) call.audio.close();
      Object.assign(call, { stream: void 0, audio: void 0, admitted: false, muted: false, active: false });
      ui.callButton.hidden = false;
      ui.callButton.disabled = false;
      ui.muteButton.hidden = true;
      ui.hangupButton.hidden = true;
      ui.muteButton.setAttribute("aria-pressed", "false");
      ui.muteButton.textContent = "Mute";
    }
    function finishCall(reason, code, message) {
      if (!call.active) return;
      const wasAdmitted = call.admitted;
      endCall();
      if (code) {
        ui.setStatus("error", "The call has ended.");
        ui.showProblem(code, message);
      } else {
        ui.setStatus("ended", END_REASONS[reason] || "The call has ended.");
      }
      if (wasAdmitted) ui.emit("call-end", { reason: reason || code });
      if (!ui.panel.hidden) ui.callButton.focus();
    }
    function hangUp() {
      send({ type: "hangup" });
      finishCall("customer_hangup");
    }
    function toggleMute() {
      call.muted = !call.muted;
      for (const track of call.stream?.getAudioTracks() ?? []) track.enabled = !call.muted;
      ui.muteButton.setAttribute("aria-pressed", String(call.muted));
      ui.muteButton.textContent = call.muted ? "Unmute" : "Mute";
      send({ type: "mute", muted: call.muted });
    }
    return { call, startCall, hangUp, toggleMute };
  }

  // lib/web/widget/src/main.js
  var script = document.currentScript;
  if (script && !window.VoiceAgentWidget) start(script);
  function start(script2) {
    const base = new URL(script2.src).origin;
    const data = script2.dataset;
    const config = {
      apiKey: data.apiKey || "",
      agentId: data.agentId || "",
      position: data.position === "bottom-left" ? "left" : "right",
      theme: ["light", "dark"].includes(data.theme) ? data.theme : "auto",
      accent: /^#[0-9a-f]{3,8}$/i.test(data.accent || "") ? data.accent : "#1d4ed8",
      title: data.title || "Talk to us",
      greeting: data.greeting || "",
      mode: ["voice", "chat"].includes(data.mode) ? data.mode : "both"
    };
    const voiceOn = config.mode !== "chat";
    const chatOn = config.mode !== "voice";
    const ui = createPanel(config);
    const voice = createVoice(ui, config, base);
    const chats = createChat(ui, config, base, () => voice.call.active);
    ui.compose.onsubmit = (event) => {
      event.preventDefault();
      const text = ui.input.value;
      ui.input.value = "";
      chats.sendMessage(text);
    };
    ui.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        ui.compose.requestSubmit();
      }
    });
    ui.launcher.onclick = () => ui.panel.hidden ? ui.open() : ui.closePanel();
    ui.close.onclick = ui.closePanel;
    ui.callButton.onclick = voice.startCall;
    ui.muteButton.onclick = voice.toggleMute;
    ui.hangupButton.onclick = voice.hangUp;
    ui.panel.addEventListener("keydown", ui.trapFocus);
    const api = {
      open: ui.open,
      close: ui.closePanel,
      /** Opens the panel and starts a call; in chat mode, opens it at the message box. */
      start: () => voiceOn ? voice.startCall() : ui.open(),
      /** Sends a chat message as if the visitor typed it. */
      send: (text) => {
        ui.open();
        chats.sendMessage(text);
      },
      /** Hangs up the call and ends the chat, whichever is running. */
      end: () => {
        if (voice.call.active) voice.hangUp();
        if (chats.chat.socket && chats.chat.ready) chats.chat.socket.send(JSON.stringify({ type: "end" }));
      },
      on(name, fn) {
        if (!ui.listeners.has(name)) ui.listeners.set(name, /* @__PURE__ */ new Set());
        ui.listeners.get(name).add(fn);
        return api;
      },
      off(name, fn) {
        ui.listeners.get(name)?.delete(fn);
        return api;
      },
      /** Read-only figures for tests and debugging; never the credential. */
      get stats() {
        return { ...ui.stats };
      }
    };
    Object.defineProperty(window, "VoiceAgentWidget", { value: Object.freeze(api) });
    if (!config.apiKey || !config.agentId) {
      ui.setStatus("error", "Not set up.");
      ui.showProblem("setup", "This assistant is not set up: the script tag needs data-api-key and data-agent-id.");
      ui.callButton.disabled = true;
      ui.input.disabled = true;
      ui.sendButton.disabled = true;
    } else if (chatOn && chats.saved()) {
      void chats.openChat();
    }
    const mount = () => document.body.append(ui.host);
    if (document.body) mount();
    else document.addEventListener("DOMContentLoaded", mount, { once: true });
  }
})();
