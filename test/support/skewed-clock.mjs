// Preloaded (node --import) into a service process by tests only: shifts this process's wall clock by
// TASKLOOM_TEST_CLOCK_SKEW_MS (Date.now() and new Date()), as a host whose clock is off would be. Timers and
// performance.now() are untouched, as they are on such a host.
const skew = Number(process.env.TASKLOOM_TEST_CLOCK_SKEW_MS ?? 0);
if (skew) {
  const RealDate = Date;
  class SkewedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + skew);
      else super(...args);
    }
    static now() {
      return RealDate.now() + skew;
    }
  }
  globalThis.Date = SkewedDate;
}
