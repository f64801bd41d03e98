/**
 * An address of this machine where nothing listens, for the tests of a service that cannot be
 * reached. Port 1, rather than a port freed after listening on it: a freed port lies in the
 * ephemeral range, where any process of the suite (an engine's gRPC server, a test's emulator) may
 * be given it the next moment, and the test then talks to that process. No `listen(0)` is handed
 * a port outside that range.
 */
export const NOTHING_LISTENS = "http://127.0.0.1:1";
