/**
 * The meeting page (docs/meeting.md): device check, join, the call over the streaming service's
 * `/web-stream` WebSocket, reconnects, and a clear message for everything that can go wrong. Plain browser
 * JavaScript served from our origin under a CSP that allows nothing else; the audio runs in two worklets
 * (capture-worklet.js, playback-worklet.js) driven from meeting-media.js.
 */

import { AudioEngine, cameraNote, deviceProblem, missingFeatures, openDevices } from './meeting-media.js';
import { openCallSocket, sendControl as send } from './web-call.js';
import { showStandIns } from './stand-ins.js';
/** How long the page keeps trying to rejoin after the socket drops: the streaming service's rejoin grace. */
const REJOIN_WINDOW_MS = 30_000;
/** Retry delays grow from half a second to five: quick after a blip, gentle on a server that is down. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 5_000;
/** Enough captions to follow the conversation; older ones leave the page (the history keeps the transcript). */
const MAX_CAPTIONS = 60;

const $ = (id) => document.getElementById(id);
const root = $('meeting');
const callId = root.dataset.callId;
const storageKey = `meeting-session:${callId}`;

/** What tests (and a curious person in the console) can read: never the credential. */
const stats = { state: 'starting', samplesPlayed: 0, outputRms: 0, marksEchoed: [], framesSent: 0, micLevel: 0, agentState: '' };
Object.defineProperty(window, '__meeting', {
  value: Object.freeze({
    get state() { return stats.state; },
    get samplesPlayed() { return stats.samplesPlayed; },
    get outputRms() { return stats.outputRms; },
    get marksEchoed() { return [...stats.marksEchoed]; },
    get framesSent() { return stats.framesSent; },
    get micLevel() { return stats.micLevel; },
    get agentState() { return stats.agentState; },
    get rejoinAttempts() { return call.attempt; },
  }),
});

// ---------------------------------------------------------------------------------------------------------
// What the page says

const END_REASONS = {
  customer_hangup: 'You hung up.',
  agent_hangup: 'The agent ended the call.',
  transferred: 'The call was transferred.',
  max_duration: 'The call reached its time limit.',
  silence_timeout: 'The call ended after a long silence.',
  voicemail: 'The call ended.',
  ended_by_api: 'The call was ended.',
  error: 'The call ended because of a problem on our side.',
  connection_lost: 'The connection was lost and could not be restored. Check your network; the link cannot be used again.',
};

/** The streaming service's `error` codes, said for a person. */
const ERRORS = {
  bad_credential: ['This call cannot be joined', 'This page’s session is not valid any more. Ask for a new meeting link.'],
  // The state line already says "The call has ended."; the title says what that means here.
  ended: ['This call is over', 'It cannot be joined again. Ask for a new meeting link to talk again.'],
  replaced: ['Continued elsewhere', 'This call continued in another tab or window of this browser.'],
  already_connected: ['Already open elsewhere', 'This call is already open in another tab or window. Close this one and continue there.'],
  insufficient_credits: ['The call cannot start', 'The call cannot start right now. Please try again later or contact whoever sent you the link.'],
  unavailable: ['The agent is unavailable', 'The agent could not be reached (a service it depends on failed). Please try again in a few minutes.'],
};

const JOIN_REFUSALS = {
  link_used: ['Link already used', 'This meeting link has already been used. Ask for a new link.'],
  link_expired: ['Link expired', 'This meeting link has expired. Ask for a new link.'],
  not_found: ['Link not found', 'This meeting link is not valid.'],
};

function setState(state, text) {
  stats.state = state;
  root.dataset.state = state;
  $('state').textContent = text;
}

let agentName = root.dataset.session ? JSON.parse(root.dataset.session).agentName : undefined;

function describeLive() {
  const who = agentName || 'The agent';
  const doing = { listening: `${who} is listening`, thinking: `${who} is thinking`, speaking: `${who} is speaking` }[stats.agentState];
  return doing ? `Live: ${doing}.` : 'Live.';
}

function showProblem(title, text, retry) {
  $('problem-title').textContent = title;
  $('problem-text').textContent = text;
  const button = $('retry');
  button.hidden = !retry;
  button.onclick = retry ?? null;
  $('problem').hidden = false;
}

const hideProblem = () => { $('problem').hidden = true; };

/** Leaves only the problem (or the end screen) on the page, the state line saying why. */
function showOnly(section) {
  for (const id of ['join', 'call', 'ended']) if ($(id)) $(id).hidden = id !== section;
}

/** Until when the agent's last words may still play here after its state left `speaking`. */
let spokeUntil = 0;
/** The agent's tile: its ring grows with the level while the agent speaks (not with a bed in the silences). */
function showAgentLevel(rms) {
  const tile = $('agent-tile');
  const voiced = stats.agentState === '' || stats.agentState === 'speaking' || performance.now() < spokeUntil;
  // Speech sits around 0.05–0.3 RMS; the square root spreads quiet speech across the scale.
  const level = voiced ? Math.min(1, Math.sqrt(rms) * 1.6) : 0;
  tile.dataset.agentLevel = rms.toFixed(4);
  tile.querySelector('.ring').style.transform = `scale(${(1 + level * 0.6).toFixed(3)})`;
  tile.classList.toggle('speaking', voiced && rms > 0.01);
}

// ---------------------------------------------------------------------------------------------------------
// The call

const media = { stream: undefined, audio: new AudioEngine(), muted: false, cameraOff: false };
const call = { session: undefined, socket: undefined, admitted: false, finished: false, rejoinDeadline: 0, attempt: 0, retryTimer: 0, lastError: '' };

media.audio.onMark = (name) => {
  stats.marksEchoed.push(name);
  sendControl({ type: 'mark', name });
};
media.audio.onStats = (played, rms) => {
  stats.samplesPlayed = played;
  stats.outputRms = rms;
  showAgentLevel(rms);
};

function onMicFrame(frame, level) {
  stats.micLevel = media.muted ? 0 : level;
  const meter = $('mic-level');
  // The same square-root spread as the agent's tile: a normal voice fills about half the meter.
  if (meter) meter.value = Math.min(1, Math.sqrt(stats.micLevel) * 1.6);
  const socket = call.socket;
  if (call.admitted && !media.muted && socket && socket.readyState === WebSocket.OPEN) {
    socket.send(frame);
    stats.framesSent += 1;
  }
}

const sendControl = (message) => send(call.socket, message);

function attachPreview(video) {
  video.srcObject = media.stream;
  video.play().catch(() => undefined);
}

/** Opens the devices and the audio engine; on failure shows why, with a Try again that starts over. */
async function prepareDevices(onReady) {
  const missing = missingFeatures();
  if (missing.length > 0) {
    setState('unsupported', 'This browser cannot run the call.');
    showOnly(undefined);
    showProblem('This browser is not supported', `The call needs ${missing.join(', ')}. Open the link in a current Chrome, Edge, Firefox or Safari.`);
    return false;
  }
  try {
    // A Try again: release what an earlier attempt opened before asking again.
    if (media.stream) for (const track of media.stream.getTracks()) track.stop();
    const { stream, cameraError } = await openDevices();
    media.stream = stream;
    const note = cameraNote(cameraError);
    for (const id of ['camera-note', 'self-note']) {
      const element = $(id);
      if (element) { element.textContent = note ?? ''; element.hidden = !note; }
    }
    $('camera').hidden = stream.getVideoTracks().length === 0;
    await media.audio.start(stream, onMicFrame);
    hideProblem();
    return true;
  } catch (error) {
    const [title, text] = deviceProblem(error);
    setState('device-error', title);
    showProblem(title, text, () => { hideProblem(); onReady(); });
    return false;
  }
}

function saveSession(session) {
  sessionStorage.setItem(storageKey, JSON.stringify(session));
}

function storedSession() {
  try {
    const value = JSON.parse(sessionStorage.getItem(storageKey) ?? 'null');
    return value && typeof value.credential === 'string' && typeof value.streamUrl === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Switches the page to the call and connects. */
function startCall(session) {
  call.session = session;
  agentName = session.agentName || agentName;
  $('agent-name').textContent = agentName || 'Agent';
  $('title').textContent = `Call with ${agentName || 'your agent'}`;
  document.title = $('title').textContent;
  showStandIns(session.standIns);
  // The token leaves the address bar; a reload lands on the room page, which rejoins.
  history.replaceState(null, '', `/meeting/${encodeURIComponent(callId)}`);
  showOnly('call');
  attachPreview($('self-view'));
  offerSound();
  connect();
}

/** Browsers start audio (both ways) only after a click or key press; after a reload there was none: a button asks. */
function offerSound() {
  const button = $('sound');
  button.hidden = media.audio.running;
  button.onclick = () => media.audio.resume().then(() => { button.hidden = true; });
  media.audio.context.onstatechange = () => { button.hidden = media.audio.running || call.finished; };
}

function connect() {
  call.socket = openCallSocket(call.session, media.audio, { current: (socket) => socket === call.socket, onMessage: onControl, onClose });
  call.admitted = false;
  if (stats.state !== 'reconnecting') setState('connecting', 'Connecting…');
}

function onClose(event) {
  call.socket = undefined;
  call.admitted = false;
  if (call.finished) return;
  // Refused (1008) or failed (1011) without a reason we may retry: retrying would only be refused again.
  if ((event.code === 1008 || event.code === 1011) && call.lastError !== 'already_connected') {
    finish(undefined, { title: 'The call stopped', text: 'The call could not continue. Ask for a new meeting link to talk again.' });
    return;
  }
  scheduleRejoin();
}

function onControl(message) {
  switch (message.type) {
    case 'ready':
      call.admitted = true;
      call.lastError = '';
      call.rejoinDeadline = 0;
      call.attempt = 0;
      if (message.agentName) agentName = message.agentName;
      $('agent-name').textContent = agentName || 'Agent';
      if (media.muted) sendControl({ type: 'mute', muted: true });
      setState('live', describeLive());
      break;
    case 'agent': // a handoff (docs/handoffs.md): the agent talking from here; earlier captions keep theirs
      $('agent-name').textContent = agentName = message.agentName || agentName;
      break;
    case 'caption':
      showCaption(message.role === 'agent' ? 'agent' : 'user', String(message.text ?? ''), message.final === true);
      break;
    case 'state':
      if (stats.agentState === 'speaking' && message.state !== 'speaking') spokeUntil = performance.now() + 500;
      stats.agentState = String(message.state);
      if (call.admitted) setState('live', describeLive());
      break;
    case 'ended':
      finish(String(message.reason ?? 'error'));
      break;
    case 'error':
      onServerError(String(message.code ?? ''), message.message);
      break;
    default:
      break;
  }
}

function onServerError(code, message) {
  call.lastError = code;
  // A rejoin can race the server noticing the old socket is gone: keep trying within the window.
  if (code === 'already_connected' && call.rejoinDeadline !== 0) return;
  const [title, text] = ERRORS[code] ?? ['The call stopped', typeof message === 'string' && message ? message : 'Something went wrong with the call.'];
  finish(undefined, { title, text });
}

function scheduleRejoin() {
  const now = Date.now();
  if (call.rejoinDeadline === 0) {
    call.rejoinDeadline = now + REJOIN_WINDOW_MS;
    // The agent stops talking while we are away; what was queued would be stale when we are back.
    media.audio.clear();
  }
  const delay = Math.min(RETRY_FIRST_MS * 2 ** call.attempt, RETRY_MAX_MS);
  call.attempt += 1;
  if (now + delay > call.rejoinDeadline) {
    finish('connection_lost');
    return;
  }
  setState('reconnecting', 'Reconnecting… Your call continues when the connection is back.');
  call.retryTimer = setTimeout(connect, delay);
}

/** The end: the socket closed, the devices released, and the end screen (or the problem) says why. */
function finish(reason, problem) {
  if (call.finished) return;
  call.finished = true;
  clearTimeout(call.retryTimer);
  const socket = call.socket;
  call.socket = undefined;
  if (socket && socket.readyState <= WebSocket.OPEN) socket.close(1000);
  if (media.stream) for (const track of media.stream.getTracks()) track.stop();
  media.audio.close();
  if (problem) {
    setState('ended', 'The call has ended.');
    showOnly(undefined);
    showProblem(problem.title, problem.text);
    return;
  }
  // The end screen's heading says it (once): the state line steps aside, and focus moves to the heading so
  // a screen reader announces the end and its reason as the live line would have.
  setState('ended', '');
  $('state').hidden = true;
  const why = END_REASONS[reason] ?? '';
  $('ended-reason').textContent = why;
  $('ended-reason').hidden = why === '';
  // The mark is a tick for an ordinary end, not for one our side or the network caused.
  $('ended').dataset.reason = reason;
  showOnly('ended');
  $('ended-title').focus();
}

function showCaption(role, text, final) {
  const list = $('captions');
  let item = list.querySelector(`p[data-role="${role}"][data-final="false"]`);
  if (!item) {
    item = document.createElement('p');
    item.dataset.role = role;
    item.className = `caption ${role}`;
    const who = document.createElement('span');
    who.className = 'who';
    who.textContent = role === 'agent' ? `${agentName || 'Agent'}: ` : 'You: ';
    const words = document.createElement('span');
    words.className = 'words';
    item.append(who, words);
    list.append(item);
    while (list.children.length > MAX_CAPTIONS) list.firstElementChild.remove();
  }
  item.dataset.final = String(final);
  item.querySelector('.words').textContent = text;
  list.scrollTop = list.scrollHeight;
}

function wireControls() {
  $('mute').onclick = () => {
    media.muted = !media.muted;
    for (const track of media.stream.getAudioTracks()) track.enabled = !media.muted;
    $('mute').setAttribute('aria-pressed', String(media.muted));
    $('mute').textContent = media.muted ? 'Unmute' : 'Mute';
    sendControl({ type: 'mute', muted: media.muted });
  };
  $('camera').onclick = () => {
    media.cameraOff = !media.cameraOff;
    for (const track of media.stream.getVideoTracks()) track.enabled = !media.cameraOff;
    $('camera').setAttribute('aria-pressed', String(media.cameraOff));
    $('camera').textContent = media.cameraOff ? 'Camera on' : 'Camera off';
  };
  $('hangup').onclick = () => {
    sendControl({ type: 'hangup' });
    finish('customer_hangup');
  };
}

// ---------------------------------------------------------------------------------------------------------
// The three ways in

async function joinScreen() {
  for (const element of document.querySelectorAll('[data-needs-script]')) element.hidden = false;
  const form = $('join-form');
  const button = $('join-button');
  button.disabled = true;
  setState('checking', 'Checking your microphone and camera… Allow them if your browser asks.');
  if (!(await prepareDevices(joinScreen))) return;
  attachPreview($('preview'));
  button.disabled = false;
  setState('ready', media.audio.running ? 'Ready: speak to see the microphone level, then select Join.' : 'Ready: select Join when you are.');
  // Browsers hold audio back until a gesture: the first click or key press starts the meter.
  const wake = () => media.audio.resume();
  document.addEventListener('pointerdown', wake, { once: true });
  document.addEventListener('keydown', wake, { once: true });
  form.onsubmit = (event) => {
    event.preventDefault();
    join(form, button);
  };
}

async function join(form, button) {
  button.disabled = true;
  setState('joining', 'Joining…');
  media.audio.resume();
  const token = new FormData(form).get('token');
  let response;
  try {
    response = await fetch(`/meeting/${encodeURIComponent(callId)}/join`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ token }),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    button.disabled = false;
    setState('ready', 'Could not reach the server.');
    showProblem('No connection', 'The server could not be reached. Check your network, then select Join again.');
    return;
  }
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const code = body && body.error && body.error.code;
    const [title, text] = JOIN_REFUSALS[code] ?? ['Could not join', 'Joining failed. Please try again in a moment.'];
    if (JOIN_REFUSALS[code]) {
      finish(undefined, { title, text });
    } else {
      button.disabled = false;
      setState('ready', title);
      showProblem(title, text);
    }
    return;
  }
  saveSession(body);
  hideProblem();
  startCall(body);
}

async function roomPage(session) {
  if (!session) {
    setState('ended', 'This link has already been used.');
    showOnly(undefined);
    showProblem('This link has already been used', 'This meeting link was opened before, and a link works once. If it was you, continue in the tab where you joined; otherwise ask for a new link.');
    return;
  }
  setState('connecting', 'Connecting…');
  if (!(await prepareDevices(() => roomPage(session)))) return;
  // A rejoin (reload, or the form's page): the service may not have seen this tab's old socket close yet,
  // so `already_connected` is retried within the same window as a dropped socket.
  call.rejoinDeadline = Date.now() + REJOIN_WINDOW_MS;
  startCall(session);
}

wireControls();
if (root.dataset.session) {
  // The Join form was posted without this script: the session came in the page.
  const session = JSON.parse(root.dataset.session);
  saveSession(session);
  roomPage(session);
} else if ($('join-form')) {
  joinScreen();
} else {
  roomPage(storedSession());
}
