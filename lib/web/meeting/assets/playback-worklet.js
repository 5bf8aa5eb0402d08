/**
 * The meeting page's playback of the agent's voice (an AudioWorklet, docs/meeting.md): a ring buffer of
 * 16 kHz samples, read out at the context's rate by linear interpolation.
 *
 * - `{type:'audio', pcm}`: PCM16 little-endian 16 kHz, appended.
 * - `{type:'mark', name}`: echoed back (`{type:'mark', name}`) once every sample appended before it has been
 *   played, so the platform knows what the contact actually heard.
 * - `{type:'clear'}`: barge-in; every buffered sample is dropped at once, then the pending marks are echoed.
 *
 * It reports `{type:'stats', played, rms}` about every 20 ms: samples played so far (16 kHz) and the RMS of
 * what it output since the last report, for the page's visual and for tests.
 */
const IN_RATE = 16000;
/** Ten seconds to start with; a reply that arrives faster than it plays grows the ring. */
const INITIAL_CAPACITY = IN_RATE * 10;
/** About 20 ms of render quanta (128 frames each) between reports. */
const REPORT_SECONDS = 0.02;

class PlaybackProcessor extends AudioWorkletProcessor {
  constructor() {
    super();
    this.ring = new Float32Array(INITIAL_CAPACITY);
    /** Samples appended so far (absolute, 16 kHz). */
    this.written = 0;
    /** The read position (absolute, fractional, 16 kHz); a clear jumps it to the end. */
    this.readPos = 0;
    /** Samples actually played (16 kHz): the read position's moves minus what a clear dropped. */
    this.played = 0;
    this.step = IN_RATE / sampleRate;
    /** Marks not yet echoed, each with the sample count it waits for. */
    this.marks = [];
    this.energy = 0;
    this.outputSamples = 0;
    this.reportEvery = Math.round(sampleRate * REPORT_SECONDS);
    this.port.onmessage = (event) => this.receive(event.data);
  }

  receive(message) {
    if (message.type === 'audio') this.append(message.pcm);
    else if (message.type === 'mark') this.marks.push({ name: message.name, at: this.written });
    else if (message.type === 'clear') this.clear();
  }

  append(pcm) {
    const view = new DataView(pcm);
    const count = Math.floor(pcm.byteLength / 2);
    this.reserve(count);
    const capacity = this.ring.length;
    for (let k = 0; k < count; k += 1) this.ring[(this.written + k) % capacity] = view.getInt16(k * 2, true) / 0x8000;
    this.written += count;
  }

  /** Grows the ring (doubling) until `count` more samples fit beside the unplayed ones. */
  reserve(count) {
    const start = Math.floor(this.readPos);
    const needed = this.written - start + count + 1;
    if (needed <= this.ring.length) return;
    let capacity = this.ring.length;
    while (capacity < needed) capacity *= 2;
    const grown = new Float32Array(capacity);
    for (let abs = start; abs < this.written; abs += 1) grown[abs % capacity] = this.ring[abs % this.ring.length];
    this.ring = grown;
  }

  clear() {
    this.readPos = this.written;
    this.echoMarks();
  }

  /** Echoes the marks whose audio is all played (or dropped), after a report, so the page's figures are never behind a mark. */
  echoMarks() {
    const position = Math.floor(this.readPos);
    if (this.marks.length === 0 || this.marks[0].at > position) return;
    this.report();
    while (this.marks.length > 0 && this.marks[0].at <= position) this.port.postMessage({ type: 'mark', name: this.marks.shift().name });
  }

  report() {
    const rms = this.outputSamples === 0 ? 0 : Math.sqrt(this.energy / this.outputSamples);
    this.port.postMessage({ type: 'stats', played: Math.round(this.played), rms });
    this.energy = 0;
    this.outputSamples = 0;
  }

  process(_inputs, outputs) {
    const out = outputs[0][0];
    const capacity = this.ring.length;
    for (let j = 0; j < out.length; j += 1) {
      const i = Math.floor(this.readPos);
      if (i >= this.written) {
        // Nothing to play: silence, and the position waits for the next audio.
        out[j] = 0;
        continue;
      }
      const f = this.readPos - i;
      const a = this.ring[i % capacity];
      const b = i + 1 < this.written ? this.ring[(i + 1) % capacity] : a;
      const value = a + (b - a) * f;
      out[j] = value;
      this.energy += value * value;
      const next = Math.min(this.readPos + this.step, this.written);
      this.played += next - this.readPos;
      this.readPos = next;
    }
    for (let c = 1; c < outputs[0].length; c += 1) outputs[0][c].set(out);
    this.outputSamples += out.length;
    this.echoMarks();
    if (this.outputSamples >= this.reportEvery) this.report();
    return true;
  }
}

registerProcessor('meeting-playback', PlaybackProcessor);
