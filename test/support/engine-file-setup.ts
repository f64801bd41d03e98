/**
 * Runs before each engine file in the worker process the engine files share (vitest.config.mts),
 * so that each starts where a process of its own would: at the repository's root. A program run
 * inside the process (the fleet's in-process runner) moves it into the program's folder, which
 * the earlier file may have removed since; a child process started from there fails to start.
 */
import { repoRoot } from "./pulumi.js";

process.chdir(repoRoot);
