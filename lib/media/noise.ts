/** Background noise for simulated far ends: the phone and browser simulated callers, and voice agent tests' callers. */

/**
 * Unit-variance Gaussian noise from a seeded generator (mulberry32, then the sum of twelve uniforms less 6):
 * the same sequence every run, so a noisy-line test is repeatable.
 */
export class GaussianNoise {
  constructor(private state: number) {}

  next(): number {
    let sum = 0;
    for (let i = 0; i < 12; i += 1) sum += this.uniform();
    return sum - 6;
  }

  private uniform(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }
}
