package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/tournaments"
)

// pairings prints a pairing table offline.
func pairings(_ context.Context, c *call, args []string) error {
	fs := c.flags()
	system := fs.String("system", "round-robin", "round-robin, double-round-robin or knockout")
	players := fs.Int("players", 0, "number of players, numbered 1..N (for knockout: by seed)")
	asJSON := fs.Bool("json", false, `print {"rounds": [[[a, b], ...], ...]} (byes apart, under "byes")`)
	if err := c.parse(fs, args); err != nil {
		return err
	}
	var (
		rounds [][]tournaments.Pair
		err    error
	)
	switch *system {
	case "round-robin":
		rounds, err = tournaments.RoundRobin(*players, false)
	case "double-round-robin":
		rounds, err = tournaments.RoundRobin(*players, true)
	case "knockout":
		var first []tournaments.Pair
		first, err = tournaments.KnockoutBracket(*players)
		rounds = [][]tournaments.Pair{first}
	default:
		return usageError(fmt.Sprintf("--system %q: want round-robin, double-round-robin or knockout (Swiss rounds depend on results: pair them in the registry)", *system))
	}
	if err != nil {
		return usageError(err.Error())
	}
	out := struct {
		Rounds [][][2]int `json:"rounds"`
		Byes   [][]int    `json:"byes,omitempty"`
	}{Rounds: [][][2]int{}}
	hasBye := false
	for _, round := range rounds {
		games := [][2]int{}
		byes := []int{}
		for _, p := range round {
			if p.Bye() {
				byes = append(byes, p.A)
				hasBye = true
				continue
			}
			games = append(games, [2]int{p.A, p.B})
		}
		out.Rounds = append(out.Rounds, games)
		out.Byes = append(out.Byes, byes)
	}
	if !hasBye {
		out.Byes = nil
	}
	if *asJSON {
		return json.NewEncoder(c.stdout).Encode(out)
	}
	for r, games := range out.Rounds {
		var parts []string
		for _, g := range games {
			parts = append(parts, fmt.Sprintf("%d–%d", g[0], g[1]))
		}
		line := fmt.Sprintf("round %2d: %s", r+1, strings.Join(parts, "  "))
		if out.Byes != nil && len(out.Byes[r]) > 0 {
			line += fmt.Sprintf("  (bye: %d)", out.Byes[r][0])
		}
		fmt.Fprintln(c.stdout, line)
	}
	return nil
}

// importDryRun checks a tournament file offline.
func importDryRun(_ context.Context, c *call, args []string) error {
	fs := c.flags()
	dry := fs.Bool("dry-run", false, "parse and rank the file without a server (required: imports into the registry go through TournamentService)")
	format := fs.String("format", "", "h9, opengotha or pairgoth (default: detected)")
	encoding := fs.String("encoding", "", "the file's charset, e.g. gbk, latin1, windows-1251 (default: detected)")
	asJSON := fs.Bool("json", false, "print the summary as JSON: players, rounds, games, default wins, byes, warnings, standings")
	byePlayers := fs.String("bye-players", "", "file players (by index, e.g. 4,9) to take as placeholders standing for byes, as a warning proposes")
	zh := fs.Bool("zh", false, "word the coded warnings in Chinese")
	if err := c.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError("want one file")
	}
	if !*dry {
		return usageError("only --dry-run is offline; import into the registry with TournamentService.ImportTournament or the agency workspace")
	}
	if *format != "" && *format != "h9" && *format != "opengotha" && *format != "pairgoth" {
		return usageError(fmt.Sprintf("--format %q: want h9, opengotha or pairgoth", *format))
	}
	name := fs.Arg(0)
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	imp, err := tournaments.Read(data, tournaments.ReadOptions{Format: *format, Encoding: *encoding})
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var ids []int
	for _, f := range strings.FieldsFunc(*byePlayers, func(r rune) bool { return r == ',' || r == ' ' }) {
		id, err := strconv.Atoi(f)
		if err != nil {
			return usageError(fmt.Sprintf("--bye-players %q: want player indexes such as 4,9", *byePlayers))
		}
		ids = append(ids, id)
	}
	if imp, err = imp.ConfirmByePlayers(ids); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	sum, err := imp.Summarize()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	stdout := c.stdout
	if *asJSON {
		return json.NewEncoder(stdout).Encode(sum)
	}
	fmt.Fprintf(stdout, "%s (%s, %s): %d players, %d rounds, %d games (%d played and rated, %d played not rated, %d not played; %d default wins, %d double defaults, %d jigo), %d byes (%d half-point), %d EGD PINs\n",
		sum.Name, sum.Format, sum.Encoding, sum.Players, sum.Rounds, sum.Games, sum.PlayedRated, sum.PlayedUnrated, sum.NotPlayed,
		sum.DefaultWins, sum.DoubleDefaults, sum.Jigo, sum.Byes, sum.HalfByes, sum.EGDPins)
	for _, w := range sum.Warnings {
		switch {
		case w.Code == "":
			fmt.Fprintf(stdout, "warning: %s\n", w)
		case *zh:
			fmt.Fprintf(stdout, "warning %s: %s\n", w.Code, w.MsgZH)
		default:
			fmt.Fprintf(stdout, "warning %s: %s\n", w.Code, w)
		}
	}
	for _, p := range sum.Standings {
		fmt.Fprintf(stdout, "%4d  %-30s %4s %3d points  SOS %d\n", p.Place, p.Name, p.Rank, p.Points, p.SOS)
	}
	return nil
}
