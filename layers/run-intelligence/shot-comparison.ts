// Imports nothing: the dashboard reads it too.

/** One compared screenshot, as the execution stores it (`screenshots`). */
export interface ShotComparison {
  /** The screenshot action (from 0). */
  actionIndex: number;
  /** This run's screenshot. */
  capture: string;
  /** The previous successful run's screenshot of the same action (the same repeat inside a `foreach`). */
  baseline?: string;
  /** Differing pixels, percent of the larger image's. */
  differentPct?: number;
  /** Different sizes (`1280x720 → 1280x900`): the area only one covers counts as different. */
  sizes?: string;
  /** The diff image, a capture of this run. */
  diff?: string;
  changed?: boolean;
  /** Why it was not compared. */
  note?: string;
}
