/** A pause window in code on the default profile: test/e2e/pause-window-scenario.ts. */
import { describePauseWindow } from "./pause-window-scenario.js";
import { profiles } from "./support.js";

describePauseWindow(profiles[0]!, { badWindows: true });
