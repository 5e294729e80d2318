// What the league website writes against a TypeScript client generated from openapi.yaml
// (openapi-typescript, default options; openapi-fetch): read standings (a page of them), post a
// report naming only each row's place and player, read a problem. Compiled with `tsc --strict`
// by tests/client/test_typescript_client.py beside the generated `league.d.ts`.
import createClient from "openapi-fetch";
import type { components, paths } from "./league";

type Problem = components["schemas"]["Problem"];

// The website reads JSON (and problem+json): said once here, since some operations also answer
// CSV to `?format=csv` or `Accept: text/csv` (their 200 lists text/csv beside the JSON).
const league = createClient<paths, "application/json" | "application/problem+json">({
  baseUrl: "https://league.example",
});

export function leaders(seasonId: number, venueId: number): Promise<[number, string, number][]> {
  return league
    .GET("/api/v1/seasons/{season_id}/venues/{venue_id}/standings", {
      params: { path: { season_id: seasonId, venue_id: venueId } },
    })
    .then(({ data }) =>
      data ? data.standings.map((row): [number, string, number] => [row.rank, row.player.display_name, row.points]) : [],
    );
}

// One page of a long table: its rows keep their ranks in the whole table; `total` counts them all.
export function standingsPage(seasonId: number, venueId: number, page: number): Promise<[number[], number]> {
  return league
    .GET("/api/v1/seasons/{season_id}/venues/{venue_id}/standings", {
      params: { path: { season_id: seasonId, venue_id: venueId }, query: { page, per_page: 500 } },
    })
    .then(({ data }): [number[], number] => (data ? [data.standings.map((row) => row.rank), data.total] : [[], 0]));
}

export function reportTonight(hostKey: string, venueId: number, playerIds: number[]): Promise<number | string> {
  return league
    .POST("/api/v1/tournaments", {
      params: { header: { "Idempotency-Key": "crown-2026-03-04" } },
      headers: { Authorization: `Bearer ${hostKey}` },
      body: {
        venue_id: venueId,
        date: "2026-03-04",
        results: playerIds.map((playerId, index) => ({ place: index + 1, player_id: playerId })),
      },
    })
    // A 201 is the stored report; a 200 would be a dry run's answer (no id: nothing was stored).
    .then(({ data, error }) => (error ? problemLine(error) : "id" in data ? data.id : "dry run"));
}

// A refusal as the website shows it: status, rule, and the fields named.
export function problemLine(problem: Problem): string {
  const fields = Object.keys(problem.errors ?? {}).sort();
  return `${problem.status} ${problem.rule ?? "-"} ${problem.title}: ${problem.detail} (${fields.join(", ")})`;
}
