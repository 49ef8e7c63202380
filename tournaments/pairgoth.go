package tournaments

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/dankyu/dankyu/ledger"
)

// pgTour is the part of a pairgoth tournament file (.tour, JSON) an import needs.
type pgTour struct {
	Type      string  `json:"type"`
	Name      string  `json:"name"`
	StartDate string  `json:"startDate"`
	EndDate   string  `json:"endDate"`
	Location  string  `json:"location"`
	Komi      float64 `json:"komi"`
	Players   []struct {
		ID        int    `json:"id"`
		Name      string `json:"name"`
		FirstName string `json:"firstname"`
		Rank      *int   `json:"rank"`
		Country   string `json:"country"`
		Club      string `json:"club"`
		EGF       string `json:"egf"`
		Skip      []int  `json:"skip"`
	} `json:"players"`
	Games [][]struct {
		ID int    `json:"id"`
		T  int    `json:"t"`
		W  int    `json:"w"`
		B  int    `json:"b"`
		H  int    `json:"h"`
		R  string `json:"r"`
	} `json:"games"`
}

// pgResults maps pairgoth's result symbols; X (cancelled) is no game.
var pgResults = map[string]Result{"?": NoResult, "b": BlackWins, "w": WhiteWins, "=": Draw, "#": BothWin, "0": BothLose}

// ParsePairgoth reads a pairgoth tournament file: players, the games of
// each round (a game against player 0 is a bye) and the event's data.
// Pairgoth writes ranks as numbers, 0 for 1 dan and -1 for 1 kyu.
func ParsePairgoth(data []byte) (*Imported, error) {
	t := &Imported{Format: "pairgoth", Program: "pairgoth", Encoding: "UTF-8"}
	if bytes.HasPrefix(data, bom) {
		data, t.Encoding = data[3:], "UTF-8 (BOM)"
	}
	var tour pgTour
	if err := json.Unmarshal(data, &tour); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, fileError("pairgoth", lineAt(data, se.Offset), ReasonFileSyntax)
		case errors.As(err, &te):
			return nil, fileError("pairgoth", lineAt(data, te.Offset), ReasonFileValueType, "field", te.Field)
		}
		return nil, fileError("pairgoth", 1, ReasonFileSyntax)
	}
	fail := func(pattern string, r *ledger.Reason, params ...string) error {
		return fileError("pairgoth", lineOf(data, pattern), r, params...)
	}
	if tour.Type != "" && tour.Type != "INDIVIDUAL" {
		return nil, fail(`"type"`, ReasonFileTeamEvent, "type", tour.Type)
	}
	t.Name, t.Location, t.Start, t.End, t.Komi = tour.Name, tour.Location, tour.StartDate, tour.EndDate, tour.Komi
	ids := map[int]int{}
	playerLines := linesOf(data, `"id"\s*:\s*(\d+)\s*,\s*"name"`)
	gameLines := linesOf(data, `"id"\s*:\s*(\d+)\s*,\s*"t"`)
	if tour.StartDate != "" || tour.EndDate != "" {
		t.DateLine = lineOf(data, `"startDate"|"endDate"`)
	}
	for _, p := range tour.Players {
		at := fmt.Sprintf(`"id"\s*:\s*%d\s*,\s*"name"`, p.ID)
		if p.ID == 0 || strings.TrimSpace(p.Name) == "" {
			return nil, fail(at, ReasonFilePlayerID, "id", strconv.Itoa(p.ID))
		}
		if _, dup := ids[p.ID]; dup {
			return nil, fail(at, ReasonFilePlayerIDTwice, "id", strconv.Itoa(p.ID))
		}
		// the line is looked up only for a warning, and once (it scans the file)
		line := sync.OnceValue(func() int { return lineOf(data, at) })
		ip := ImportedPlayer{ID: len(t.Players) + 1, Surname: nameField(p.Name), Given: nameField(p.FirstName),
			Country: strings.ToUpper(strings.TrimSpace(p.Country)), Club: strings.TrimSpace(p.Club), Line: playerLines[p.ID]}
		for _, r := range p.Skip {
			if r >= 1 && r <= maxRounds {
				ip.Absent = append(ip.Absent, r)
			}
		}
		switch {
		case p.Rank == nil:
			t.warn(line(), 0, "", "player %s has no rank: kept without one", ip.Name())
		case *p.Rank >= 0 && *p.Rank < 9:
			ip.Rank = fmt.Sprintf("%dD", *p.Rank+1)
		case *p.Rank < 0 && *p.Rank >= -30:
			ip.Rank = fmt.Sprintf("%dK", -*p.Rank)
		default:
			t.warn(line(), 0, fmt.Sprint(*p.Rank), "player %s: rank out of 30k–9d: kept without one", ip.Name())
		}
		if pin, ok := egdPin(p.EGF); ok {
			ip.EGDPin = pin
		} else {
			t.warn(line(), 0, p.EGF, "player %s: egf is not a number: not kept", ip.Name())
		}
		ids[p.ID] = ip.ID
		t.Players = append(t.Players, ip)
	}
	if len(tour.Games) > maxRounds {
		return nil, fail(`"games"`, ReasonFileRounds, "rounds", strconv.Itoa(len(tour.Games)), "max", strconv.Itoa(maxRounds))
	}
	busy := map[[2]int]bool{}
	for r, games := range tour.Games {
		round := r + 1
		for _, g := range games {
			at := fmt.Sprintf(`"id"\s*:\s*%d\s*,\s*"t"`, g.ID)
			res, ok := pgResults[g.R]
			if g.R == "X" {
				continue // cancelled: no game
			}
			if !ok {
				return nil, fail(at, ReasonFileResult, "round", strconv.Itoa(round), "result", g.R)
			}
			if g.B == 0 || g.W == 0 {
				p, ok := ids[g.B+g.W]
				if !ok || g.B == g.W {
					return nil, fail(at, ReasonFileBye, "player", strconv.Itoa(g.B+g.W), "round", strconv.Itoa(round))
				}
				points := 0
				switch {
				case res == Draw:
					points = DrawPoints
				case (g.B != 0 && res == BlackWins) || (g.W != 0 && res == WhiteWins) || res == BothWin:
					points = WinPoints
				}
				t.Byes = append(t.Byes, Bye{Round: round, Player: p, Points: points})
				continue
			}
			b, okB := ids[g.B]
			w, okW := ids[g.W]
			if !okB || !okW || b == w {
				return nil, fail(at, ReasonFileGamePlayers, "round", strconv.Itoa(round), "black", strconv.Itoa(g.B), "white", strconv.Itoa(g.W))
			}
			for _, p := range []int{b, w} {
				if busy[[2]int{round, p}] {
					return nil, fail(at, ReasonFilePlaysTwice, "round", strconv.Itoa(round), "name", t.Players[p-1].Name())
				}
				busy[[2]int{round, p}] = true
			}
			t.Games = append(t.Games, ImportedGame{Game: Game{Round: round, Board: g.T, Black: b, White: w, Result: res, Handicap: g.H}, Line: gameLines[g.ID]})
		}
	}
	t.countRounds()
	t.keepPlayers()
	return t, nil
}

// lineAt is the line of a byte offset.
func lineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// linesOf maps the number each match of pattern captures to the line of
// its first match, in one pass over the file.
func linesOf(data []byte, pattern string) map[int]int {
	re := regexp.MustCompile(pattern)
	out := map[int]int{}
	line, last := 1, 0
	for _, m := range re.FindAllSubmatchIndex(data, -1) {
		line += bytes.Count(data[last:m[0]], []byte("\n"))
		last = m[0]
		if id, err := strconv.Atoi(string(data[m[2]:m[3]])); err == nil {
			if _, seen := out[id]; !seen {
				out[id] = line
			}
		}
	}
	return out
}

// lineOf is the line where pattern first matches, 1 when it does not: JSON
// decoding keeps no positions, so errors find their line this way.
func lineOf(data []byte, pattern string) int {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return 1
	}
	if loc := re.FindIndex(data); loc != nil {
		return lineAt(data, int64(loc[0]))
	}
	return 1
}
