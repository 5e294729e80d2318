// What the league website writes against a TypeScript client generated from openapi.yaml
// (openapi-typescript, default options; openapi-fetch, default options): read standings (a page
// of them), qualifiers and reports, post a report naming only each row's place and player, read a
// problem, fetch a CSV. Compiled with `tsc --strict` by tests/client/test_typescript_client.py
// beside the generated `league.d.ts`.
import createClient from "openapi-fetch";
import type { components, paths } from "./league";

type Problem = components["schemas"]["Problem"];

// Each operation answers one media type (a CSV is an operation of its own, at its JSON's path and
// `.csv`), so with the defaults `data` is the JSON body and `error` a problem.
const league = createClient<paths>({ baseUrl: "https://league.example" });

type Standings = components["schemas"]["StandingsOut"];

// Standings, qualifiers and reports as the website reads them: `data` is the JSON body, used
// plainly (no narrowing of a media type's union; only `undefined` when the answer was an error).
export function standingsOf(seasonId: number, venueId: number): Promise<Standings | undefined> {
  return league
    .GET("/api/v1/seasons/{season_id}/venues/{venue_id}/standings", {
      params: { path: { season_id: seasonId, venue_id: venueId } },
    })
    .then(({ data }) => data);
}

export function topOfTheTable(seasonId: number, venueId: number): Promise<string> {
  return league
    .GET("/api/v1/seasons/{season_id}/venues/{venue_id}/standings", {
      params: { path: { season_id: seasonId, venue_id: venueId } },
    })
    .then(({ data }) =>
      data ? `${data.standings[0].player.display_name}: ${data.standings[0].points} of ${data.total}` : "",
    );
}

export function firstQualifiers(seasonId: number): Promise<string[]> {
  return league
    .GET("/api/v1/seasons/{season_id}/qualifiers", { params: { path: { season_id: seasonId } } })
    .then(({ data }) =>
      data ? data.venues.map((venue) => `${venue.venue_id}: ${venue.qualifiers[0].player.display_name}`) : [],
    );
}

export function venueQualifiers(seasonId: number, venueId: number): Promise<string> {
  return league
    .GET("/api/v1/seasons/{season_id}/venues/{venue_id}/qualifiers", {
      params: { path: { season_id: seasonId, venue_id: venueId }, query: { view: "current" } },
    })
    .then(({ data }) => (data ? `${data.venue_name}: ${data.qualifiers.map((q) => q.player.label).join(", ")}` : ""));
}

export function winners(venueId: number): Promise<string[]> {
  return league
    .GET("/api/v1/tournaments", { params: { query: { venue_id: venueId } } })
    .then(({ data }) =>
      data ? data.items.map((report) => `${report.date}: ${report.results[0].player.display_name}`) : [],
    );
}

export function reportResults(tournamentId: number): Promise<[number, string][]> {
  return league
    .GET("/api/v1/tournaments/{tournament_id}", { params: { path: { tournament_id: tournamentId } } })
    .then(({ data }) => (data ? data.results.map((row): [number, string] => [row.place, row.player.display_name]) : []));
}

// The CSV, for a spreadsheet: an operation of its own, read as text.
export function standingsSheet(seasonId: number, venueId: number): Promise<string> {
  return league
    .GET("/api/v1/seasons/{season_id}/venues/{venue_id}/standings.csv", {
      params: { path: { season_id: seasonId, venue_id: venueId } },
      parseAs: "text",
    })
    .then(({ data }) => data ?? "");
}

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
