/**
 * Bad usage: the command line asks for what the command does not take. Every command reports it
 * alike, exit status 2 and where to read the options (command.ts).
 */
export class UsageError extends Error {}
