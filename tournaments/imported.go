package tournaments

import (
	"fmt"
	"strings"
)

// Imported is a tournament read from a file, whatever its format.
type Imported struct {
	Format   string // "h9", "opengotha" or "pairgoth"
	Program  string // the program that wrote the file, when it says ("OpenGotha 3.45.01")
	Encoding string // how the bytes were read ("UTF-8", "Windows-1252", "GBK" …)
	Name     string
	Location string
	Start    string // YYYY-MM-DD when the file says
	End      string
	DateLine int // where the file gives its dates; 0 when it does not
	Komi     float64
	Rounds   int // the rounds in which anything was played
	Players  []ImportedPlayer
	Games    []ImportedGame // Black and White are indexes into Players, from 1
	Byes     []Bye
	// Warnings are the questionable cells and the reading taken for each;
	// a file whose games cannot be known is refused instead (FormatError).
	Warnings []Warning
	listed   int // the players the file lists, absent ones included
}

// ImportedPlayer is a player as the file names him.
type ImportedPlayer struct {
	ID      int
	Surname string
	Given   string
	Rank    string // as written, upper case: "2D", "14K", "3P"
	Country string
	Club    string
	EGDPin  string // digits only; "" when the file has none
	Absent  []int  // the rounds the file marks him absent in (OpenGotha's participating, pairgoth's skip)
	Line    int    // where the file lists him
	// What some files say beside, for matching the player to the registry
	// (matching.go); zero when the file does not say.
	Region         string            // a province or city named apart from the club
	BirthYear      int               //
	IDNumber       string            // a resident ID number
	RegistryNumber int64             // this registry's player number
	OtherIDs       map[string]string // other federations' ids by scheme ("ffg", "aga")
}

// Name is "Surname Given", as EGD files write it.
func (p ImportedPlayer) Name() string { return strings.TrimSpace(p.Surname + " " + p.Given) }

// Play says how a game counts: the EGD rates only games played on the
// board with a winner or a jigo.
type Play string

const (
	PlayedRated   Play = "rated"      // played; a win, a loss or a jigo
	PlayedUnrated Play = "unrated"    // played, but both won or both lost (the referee's decision)
	NotPlayed     Play = "not_played" // won by default, a double default, or no result
)

// ImportedGame is a game of the file with how it counts.
type ImportedGame struct {
	Game
	// Default: not played, decided by default (`!` in an h-file, _BYDEF in
	// OpenGotha): a default win, or a double default when neither side won.
	Default bool
	Line    int // where the file gives the game; 0 when it cannot say
}

// Play classifies the game.
func (g ImportedGame) Play() Play {
	switch {
	case g.Default || g.Result == NoResult || g.Result == BlackForfeit || g.Result == WhiteForfeit:
		return NotPlayed
	case g.Result == BothWin || g.Result == BothLose:
		return PlayedUnrated
	}
	return PlayedRated
}

// DefaultWin reports a game one side won without playing.
func (g ImportedGame) DefaultWin() bool {
	return g.Result == BlackForfeit || g.Result == WhiteForfeit
}

// DoubleDefault reports a game neither side played nor won alone: both
// lost (or both won, or shared the points) by default.
func (g ImportedGame) DoubleDefault() bool {
	return g.Default && (g.Result == BothLose || g.Result == BothWin || g.Result == Draw)
}

// Warning is a questionable cell: where it is, what it says, and the
// reading the importer took.
type Warning struct {
	Line   int    `json:"line"`
	Column int    `json:"column,omitempty"`
	Cell   string `json:"cell,omitempty"`
	Msg    string `json:"message"` // in English
	// Code and Params are the warning as a code (see file_warnings.go),
	// to word in the reader's language; MsgZH is its Chinese.
	Code   string            `json:"code,omitempty"`
	Params map[string]string `json:"params,omitempty"`
	MsgZH  string            `json:"message_zh,omitempty"`
	// Player is the file player (1..N) the warning is about, 0 for none:
	// a placeholder's index, to confirm it as a bye.
	Player int `json:"player,omitempty"`
}

func (w Warning) String() string {
	at := fmt.Sprintf("line %d", w.Line)
	if w.Column > 0 {
		at += fmt.Sprintf(", column %d", w.Column)
	}
	if w.Cell != "" {
		at += fmt.Sprintf(" (%q)", w.Cell)
	}
	return at + ": " + w.Msg
}

func (t *Imported) warn(line, col int, cell, format string, args ...any) {
	t.Warnings = append(t.Warnings, Warning{Line: line, Column: col, Cell: clip(cell), Msg: clipf(format, args...)})
}

// maxEcho is how much of a file's text a message quotes: a hostile file's
// lines may be megabytes long, and refusals are shown and logged.
const maxEcho = 200

// clip shortens s to its first maxEcho characters and "…".
func clip(s string) string {
	n := 0
	for i := range s {
		if n == maxEcho {
			return strings.ToValidUTF8(s[:i], "") + "…"
		}
		n++
	}
	return s
}

// clipf is fmt.Sprintf with every string argument clipped.
func clipf(format string, args ...any) string {
	for i, a := range args {
		if s, ok := a.(string); ok {
			args[i] = clip(s)
		}
	}
	return fmt.Sprintf(format, args...)
}

// Field is the tournament as standings see it.
func (t *Imported) Field() Field {
	f := Field{Byes: t.Byes, Rounds: t.Rounds}
	for _, g := range t.Games {
		f.Games = append(f.Games, g.Game)
	}
	for _, p := range t.Players {
		f.Entrants = append(f.Entrants, Entrant{ID: p.ID, Name: p.Name()})
	}
	return f
}

// Summary is what `dankyu import --dry-run --json` prints.
type Summary struct {
	Format         string         `json:"format"`
	Program        string         `json:"program,omitempty"`
	Encoding       string         `json:"encoding,omitempty"`
	Name           string         `json:"name,omitempty"`
	Players        int            `json:"players"`
	Rounds         int            `json:"rounds"`
	Games          int            `json:"games"`
	PlayedRated    int            `json:"played_rated"`
	PlayedUnrated  int            `json:"played_unrated"`
	NotPlayed      int            `json:"not_played"`
	DefaultWins    int            `json:"default_wins"`
	DoubleDefaults int            `json:"double_defaults"`
	Jigo           int            `json:"jigo"`
	Byes           int            `json:"byes"`
	HalfByes       int            `json:"half_byes"` // of the byes, those scored as a draw (0= : OpenGotha's absent rounds)
	EGDPins        int            `json:"egd_pins"`
	Warnings       []Warning      `json:"warnings"`
	Standings      []SummaryPlace `json:"standings"`
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
	s := Summary{Format: t.Format, Program: t.Program, Encoding: t.Encoding, Name: t.Name, Players: len(t.Players),
		Rounds: t.Rounds, Games: len(t.Games), Byes: len(t.Byes), Warnings: t.Warnings}
	if s.Warnings == nil {
		s.Warnings = []Warning{}
	}
	for _, g := range t.Games {
		switch g.Play() {
		case PlayedRated:
			s.PlayedRated++
			if g.Result == Draw {
				s.Jigo++
			}
		case PlayedUnrated:
			s.PlayedUnrated++
		case NotPlayed:
			s.NotPlayed++
		}
		if g.DefaultWin() {
			s.DefaultWins++
		}
		if g.DoubleDefault() {
			s.DoubleDefaults++
		}
	}
	for _, b := range t.Byes {
		if b.Points == DrawPoints {
			s.HalfByes++
		}
	}
	for _, p := range t.Players {
		if p.EGDPin != "" {
			s.EGDPins++
		}
	}
	st, err := Standings(t.Field(), SwissSOSExtendedOrder)
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
	t.listed = len(t.Players)
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

// countRounds sets Rounds to the last round with a game or a bye.
func (t *Imported) countRounds() {
	t.Rounds = 0
	for _, g := range t.Games {
		t.Rounds = max(t.Rounds, g.Round)
	}
	for _, b := range t.Byes {
		t.Rounds = max(t.Rounds, b.Round)
	}
}

// egdPin keeps the digits of an EGD PIN as files write it (OpenGotha 3.52
// leaves a newline in egfPin, pairgoth too); ok is false when something else
// is in it.
func egdPin(s string) (pin string, ok bool) {
	s = strings.TrimSpace(s)
	for _, r := range s {
		if r < '0' || r > '9' {
			return "", false
		}
	}
	return s, true
}
