/**
 * Slots whose number may change (the computed run limit moves as runs are measured): `acquire` waits until fewer
 * than `size()` are held, first come first served. An aborted signal lets its waiter through at once (a run
 * cancelled while it waits then ends without holding a browser for long).
 */
export function createSlotGate(size: () => number) {
  let held = 0;
  const waiters: (() => void)[] = [];

  const pump = () => {
    while (waiters.length > 0 && held < size()) {
      held++;
      waiters.shift()!();
    }
  };

  return {
    get held() {
      return held;
    },
    /** Lets waiters in after `size()` grew. */
    refresh: pump,
    async acquire(signal?: AbortSignal): Promise<() => void> {
      let mine = false;
      const release = () => {
        if (!mine) return;
        mine = false;
        held--;
        pump();
      };
      if (held < size() && waiters.length === 0) {
        held++;
        mine = true;
        return release;
      }
      await new Promise<void>((resolve) => {
        const waiter = () => {
          mine = true;
          resolve();
        };
        waiters.push(waiter);
        signal?.addEventListener('abort', () => {
          const at = waiters.indexOf(waiter);
          if (at >= 0) {
            waiters.splice(at, 1);
            resolve(); // goes on without a slot: the run only records its cancel
          }
        }, { once: true });
      });
      // A size that grew meanwhile lets more in.
      pump();
      return release;
    },
  };
}
