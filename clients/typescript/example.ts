// A seat's move typed by the generated types: tests/client compiles this with tsc --strict, so
// a change of the document that breaks a client's code fails the build.
import type { components } from "./paiju-api";

type SeatOptions = components["schemas"]["SeatOptions"];
type CommandAnswer = components["schemas"]["CommandAnswer"];
type Queued = components["schemas"]["Queued"];

export async function move(base: string, table: string, token: string, key: string,
                           options: SeatOptions): Promise<CommandAnswer | Queued> {
  const answer = await fetch(`${base}/v1/tables/${encodeURIComponent(table)}/commands`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      "Idempotency-Key": key,
      "If-Match": `"${options.version}"`,
      "Content-Type": "application/json",
    },
    body: JSON.stringify(options.commands[0]),
  });
  return (await answer.json()) as CommandAnswer | Queued;
}

export function nextVersion(answer: CommandAnswer): number | null {
  return answer.options ? answer.options.version : null;
}
