/**
 * The meeting page's microphone capture (an AudioWorklet, docs/meeting.md). The page puts a low-pass
 * filter in front (nothing above 8 kHz survives a 16 kHz rate without folding back as noise), so this
 * worklet only resamples, by linear interpolation, from the context's rate (44.1 or 48 kHz) to 16 kHz and
 * posts 20 ms frames of PCM16 little-endian (640 bytes) with the frame's RMS level, for the meter.
 */
const OUT_RATE = 16000;
/** 20 ms at 16 kHz: the frame size the streaming service expects. */
const FRAME_SAMPLES = 320;

class CaptureProcessor extends AudioWorkletProcessor {
  constructor() {
    super();
    /** Input samples per output sample. */
    this.step = sampleRate / OUT_RATE;
    /** Where the next output sample falls, in input samples from the start of the next block (-1..0: between blocks). */
    this.position = 0;
    /** The previous block's last sample, for interpolating across the block boundary. */
    this.previous = 0;
    this.startFrame();
  }

  startFrame() {
    this.frame = new ArrayBuffer(FRAME_SAMPLES * 2);
    this.view = new DataView(this.frame);
    this.filled = 0;
    this.energy = 0;
  }

  push(value) {
    const s = Math.max(-1, Math.min(1, value));
    this.view.setInt16(this.filled * 2, s < 0 ? s * 0x8000 : s * 0x7fff, true);
    this.energy += s * s;
    this.filled += 1;
    if (this.filled === FRAME_SAMPLES) {
      const level = Math.sqrt(this.energy / FRAME_SAMPLES);
      this.port.postMessage({ frame: this.frame, level }, [this.frame]);
      this.startFrame();
    }
  }

  process(inputs) {
    const input = inputs[0] && inputs[0][0];
    if (!input || input.length === 0) return true;
    const last = input.length - 1;
    let t = this.position;
    for (; t <= last; t += this.step) {
      const i = Math.floor(t);
      const f = t - i;
      const a = i < 0 ? this.previous : input[i];
      // f > 0 implies i < last, so input[i + 1] is in this block.
      const b = f === 0 ? a : input[i + 1];
      this.push(a + (b - a) * f);
    }
    this.position = t - input.length;
    this.previous = input[last];
    return true;
  }
}

registerProcessor('meeting-capture', CaptureProcessor);
