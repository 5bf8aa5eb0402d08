/**
 * The meeting page's devices and audio (docs/meeting.md, "Audio in the page"): what the browser lacks, the
 * microphone (and camera, optional), what a device error means for a person, and the audio graph around the
 * two worklets (capture-worklet.js, playback-worklet.js).
 *
 * Shared browser code: the meeting page and the embeddable widget (docs/widget.md) both load this module and
 * its worklets from here. The worklets are found next to this module (`import.meta.url`), not at a path on
 * the page's origin, because the widget runs on other sites' pages.
 */

const worklet = (file) => new URL(file, import.meta.url).href;

/** What this browser lacks for a call, if anything. */
export function missingFeatures() {
  const missing = [];
  if (!window.isSecureContext) missing.push('a secure (https) page');
  if (!navigator.mediaDevices || typeof navigator.mediaDevices.getUserMedia !== 'function') missing.push('microphone access');
  if (typeof window.AudioWorkletNode !== 'function' || typeof window.AudioContext !== 'function') missing.push('audio worklets');
  if (typeof window.WebSocket !== 'function') missing.push('WebSockets');
  return missing;
}

const AUDIO_CONSTRAINTS = { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 };
const VIDEO_CONSTRAINTS = { width: { ideal: 640 }, height: { ideal: 480 }, facingMode: 'user' };

/**
 * The microphone, and the camera when there is one: a missing or busy camera is fine (the call is audio),
 * a missing or refused microphone is not.
 */
export async function openDevices() {
  const media = navigator.mediaDevices;
  try {
    return { stream: await media.getUserMedia({ audio: AUDIO_CONSTRAINTS, video: VIDEO_CONSTRAINTS }), cameraError: undefined };
  } catch (error) {
    if (error && error.name === 'NotAllowedError') throw error;
    // No camera, or it is busy: try the microphone alone, and say why there is no picture.
    const stream = await media.getUserMedia({ audio: AUDIO_CONSTRAINTS });
    return { stream, cameraError: error };
  }
}

/** The microphone alone (the widget's calls are audio only). */
export function openMicrophone() {
  return navigator.mediaDevices.getUserMedia({ audio: AUDIO_CONSTRAINTS });
}

export function deviceProblem(error) {
  switch (error && error.name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return ['Microphone blocked', 'The page is not allowed to use your microphone. Allow the microphone for this site (the icon in the address bar), then select Try again.'];
    case 'NotFoundError':
    case 'OverconstrainedError':
      return ['No microphone found', 'Connect a microphone or a headset, then select Try again.'];
    case 'NotReadableError':
    case 'AbortError':
      return ['Microphone busy', 'Another app is using your microphone. Close it, then select Try again.'];
    default:
      return ['Microphone problem', `The microphone could not be opened (${(error && error.message) || 'unknown error'}). Select Try again.`];
  }
}

export function cameraNote(error) {
  if (!error) return undefined;
  if (error.name === 'NotFoundError' || error.name === 'OverconstrainedError') return 'No camera: you can still talk.';
  return 'The camera is not available: you can still talk.';
}

// ---------------------------------------------------------------------------------------------------------
// Audio: capture (microphone → 16 kHz PCM16 frames) and playback (agent frames → speakers)

/**
 * The call's audio graph: microphone → low-pass → capture worklet (frames out through `onFrame`), and the
 * playback worklet → speakers. Set `onMark(name)` and `onStats(played, rms)` to hear from playback.
 */
export class AudioEngine {
  constructor() {
    this.onMark = () => undefined;
    this.onStats = () => undefined;
  }

  /** @param {MediaStream} stream */
  async start(stream, onFrame) {
    // A Try again after a failed start: the old context goes first.
    this.close();
    this.context = new AudioContext({ latencyHint: 'interactive' });
    await Promise.all([
      this.context.audioWorklet.addModule(worklet('capture-worklet.js')),
      this.context.audioWorklet.addModule(worklet('playback-worklet.js')),
    ]);
    const source = this.context.createMediaStreamSource(stream);
    // Nothing above 8 kHz may reach the 16 kHz resampler (it would fold back as noise).
    const lowpass = new BiquadFilterNode(this.context, { type: 'lowpass', frequency: 7_000, Q: Math.SQRT1_2 });
    const capture = new AudioWorkletNode(this.context, 'meeting-capture', { numberOfInputs: 1, numberOfOutputs: 0 });
    capture.port.onmessage = (event) => onFrame(event.data.frame, event.data.level);
    source.connect(lowpass).connect(capture);
    this.playback = new AudioWorkletNode(this.context, 'meeting-playback', { numberOfInputs: 0, numberOfOutputs: 1, outputChannelCount: [1] });
    this.playback.port.onmessage = (event) => this.onPlayback(event.data);
    this.playback.connect(this.context.destination);
  }

  onPlayback(message) {
    if (message.type === 'mark') this.onMark(message.name);
    else if (message.type === 'stats') this.onStats(message.played, message.rms);
  }

  get running() { return this.context && this.context.state === 'running'; }

  resume() { return this.context ? this.context.resume() : Promise.resolve(); }

  /** Agent audio: the ArrayBuffer moves to the worklet (no copy). */
  play(pcm) { this.playback.port.postMessage({ type: 'audio', pcm }, [pcm]); }

  mark(name) { this.playback.port.postMessage({ type: 'mark', name }); }

  clear() { this.playback.port.postMessage({ type: 'clear' }); }

  close() { if (this.context) this.context.close().catch(() => undefined); }
}
