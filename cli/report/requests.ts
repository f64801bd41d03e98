/**
 * The line a command that writes ends with: the requests it sent, every attempt counted by the run's
 * token server, beside the fewest the spec allows for what it did.
 */
export function requestsBesideMinimum(requests: number, minimum: number, rule: string): string {
  return `${requests} request${requests === 1 ? "" : "s"} (minimum ${minimum}: ${rule})`;
}
