/** A pause window in code on the alt profile: test/e2e/pause-window-scenario.ts (bad windows: pauses.test.ts, no request is sent). */
import { describePauseWindow } from "./pause-window-scenario.js";
import { profiles } from "./support.js";

describePauseWindow(profiles[1]!, { badWindows: false });
