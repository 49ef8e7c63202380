package tournaments

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// Imported is a tournament read from a file, whatever its format.
type Imported struct {
	Format   string // "h9" or "opengotha"
	Name     string
	Location string
	Start    string // YYYY-MM-DD when the file says
	End      string
	Komi     float64
	Rounds   int // the rounds in which anything was played
	Players  []ImportedPlayer
	Games    []Game // Black and White are indexes into Players, from 1
	Byes     []Bye
}

// ImportedPlayer is a player as the file names him.
type ImportedPlayer struct {
	ID      int
	Surname string
	Given   string
	Rank    string // as written: "2D", "14K", "3P"
	Country string
	Club    string
	EGDPin  string
}

// Name is "Surname Given", as EGD files write it.
func (p ImportedPlayer) Name() string { return strings.TrimSpace(p.Surname + " " + p.Given) }

// FormatError says where in a file the reading stopped and why.
type FormatError struct {
	Format string
	Line   int
	Msg    string
}

func (e *FormatError) Error() string { return fmt.Sprintf("%s line %d: %s", e.Format, e.Line, e.Msg) }

// decodeText turns a file into UTF-8: as it is when it is valid UTF-8,
// otherwise read as Windows-1252 (the Latin-1 of European h-files).
func decodeText(b []byte) (string, error) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if utf8.Valid(b) {
		return string(b), nil
	}
	out, err := charmap.Windows1252.NewDecoder().Bytes(b)
	if err != nil {
		return "", fmt.Errorf("decode as Windows-1252: %w", err)
	}
	return string(out), nil
}

// Field is the tournament as standings see it.
func (t *Imported) Field() Field {
	f := Field{Games: t.Games, Byes: t.Byes, Rounds: t.Rounds}
	for _, p := range t.Players {
		f.Entrants = append(f.Entrants, Entrant{ID: p.ID, Name: p.Name()})
	}
	return f
}

// Summary is what `dankyu import --dry-run --json` prints.
type Summary struct {
	Format    string         `json:"format"`
	Name      string         `json:"name,omitempty"`
	Players   int            `json:"players"`
	Rounds    int            `json:"rounds"`
	Games     int            `json:"games"`
	Byes      int            `json:"byes"`
	Standings []SummaryPlace `json:"standings"`
}

// SummaryPlace is one line of the summary's standings.
type SummaryPlace struct {
	Place  int    `json:"place"`
	Name   string `json:"name"`
	Rank   string `json:"rank,omitempty"`
	Points int    `json:"points"`
	SOS    int    `json:"sos"`
}

// Summarize counts the tournament and ranks it (Swiss order B: points with
// win 2 and draw 1, then SOS, SOSOS, SODOS; lots drawn by name).
func (t *Imported) Summarize() (Summary, error) {
	s := Summary{Format: t.Format, Name: t.Name, Players: len(t.Players), Rounds: t.Rounds, Games: len(t.Games), Byes: len(t.Byes)}
	st, err := Standings(t.Field(), SwissSOSOrder)
	if err != nil {
		return Summary{}, err
	}
	s.Standings = make([]SummaryPlace, 0, len(st))
	for _, x := range st {
		s.Standings = append(s.Standings, SummaryPlace{Place: x.Place, Name: x.Name, Rank: t.Players[x.Entrant-1].Rank, Points: x.Points, SOS: x.SOS})
	}
	return s, nil
}

// keepPlayers drops players who neither played nor had a bye (registered but
// absent) and renumbers the rest in their order, so that an OpenGotha file
// and its h-file export list the same field.
func (t *Imported) keepPlayers() {
	active := map[int]bool{}
	for _, g := range t.Games {
		active[g.Black], active[g.White] = true, true
	}
	for _, b := range t.Byes {
		active[b.Player] = true
	}
	renum := map[int]int{}
	var kept []ImportedPlayer
	for _, p := range t.Players {
		if active[p.ID] {
			renum[p.ID] = len(kept) + 1
			p.ID = len(kept) + 1
			kept = append(kept, p)
		}
	}
	t.Players = kept
	for i := range t.Games {
		t.Games[i].Black, t.Games[i].White = renum[t.Games[i].Black], renum[t.Games[i].White]
	}
	for i := range t.Byes {
		t.Byes[i].Player = renum[t.Byes[i].Player]
	}
}
