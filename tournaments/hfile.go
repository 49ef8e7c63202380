package tournaments

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

var (
	rankRe  = regexp.MustCompile(`^[0-9]{1,2}[kKdDpP]$`)
	roundRe = regexp.MustCompile(`^([0-9]+)([-+=?])(!)?(?:/([bwBW])([0-9]*))?$`)
	headRe  = regexp.MustCompile(`^;\s*([A-Z]{2})\[([^\]]*)\]`)
)

type hEntry struct {
	line     int
	opponent int
	outcome  byte // '+', '-', '=', '?'
	forfeit  bool
	colour   byte // 'b', 'w' or 0 when unknown
	handicap int
}

// ParseH9 reads an EGD tournament report ("h-file", OpenGotha's h9 layout):
// `;` header lines (EV, PC, DT, KM …), then one line per player: place
// (blank when tied), "Surname Given", rank, country, club, the placement
// columns, and one entry per round, `<opponent><+|-|=>/<b|w><handicap>`,
// opponents given by line number; `0+`, `0=` are byes, `0-` not played.
func ParseH9(data []byte) (*Imported, error) {
	text, err := decodeText(data)
	if err != nil {
		return nil, &FormatError{"h9", 1, err.Error()}
	}
	t := &Imported{Format: "h9"}
	var rows [][]hEntry
	fail := func(line int, format string, args ...any) error {
		return &FormatError{"h9", line, fmt.Sprintf(format, args...)}
	}
	lineNo := 0
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		lineNo++
		// everything after a semicolon is a comment; header fields live there
		body, comment, hasComment := strings.Cut(line, ";")
		if hasComment {
			if m := headRe.FindStringSubmatch(";" + strings.TrimSpace(comment)); m != nil {
				if err := t.header(m[1], m[2]); err != nil {
					return nil, fail(lineNo, "%s[%s]: %v", m[1], m[2], err)
				}
			}
		}
		trim := strings.TrimSpace(body)
		if trim == "" {
			continue
		}
		if pin, _, ok := strings.Cut(trim, "|"); ok {
			trim = strings.TrimSpace(pin) // the EGD PIN after | is kept below
		}
		fields := strings.Fields(trim)
		if len(fields) == 0 {
			return nil, fail(lineNo, "a line with an EGD PIN but no player")
		}
		// the place is a number, blank when tied with the line above
		i := 0
		if _, err := strconv.Atoi(strings.TrimRight(fields[0], ".)")); err == nil {
			i = 1
		}
		r := i
		for r < len(fields) && !rankRe.MatchString(fields[r]) {
			r++
		}
		if r == len(fields) || r == i {
			return nil, fail(lineNo, "no name followed by a rank such as 2D or 14K in %q", trim)
		}
		name := fields[i:r]
		p := ImportedPlayer{ID: len(t.Players) + 1, Surname: strings.ReplaceAll(name[0], "_", " "), Rank: strings.ToUpper(fields[r])}
		if len(name) > 1 {
			p.Given = strings.ReplaceAll(strings.Join(name[1:], " "), "_", " ")
		}
		rest := fields[r+1:]
		if len(rest) > 0 && len(rest[0]) == 2 && strings.ToUpper(rest[0]) == rest[0] {
			p.Country, rest = rest[0], rest[1:]
		}
		if len(rest) > 0 && !roundRe.MatchString(rest[0]) {
			if _, err := strconv.ParseFloat(rest[0], 64); err != nil {
				p.Club, rest = rest[0], rest[1:]
			}
		}
		if _, after, ok := strings.Cut(line, "|"); ok {
			p.EGDPin = strings.TrimSpace(after)
		}
		var entries []hEntry
		for _, f := range rest {
			m := roundRe.FindStringSubmatch(f)
			if m == nil {
				if _, err := strconv.ParseFloat(f, 64); err == nil && len(entries) == 0 {
					continue // a placement column (MMS, SOS …), halves allowed
				}
				return nil, fail(lineNo, "round %d: %q is not an entry like 3+/b0, 12-/w2 or 0-", len(entries)+1, f)
			}
			e := hEntry{line: lineNo, outcome: m[2][0], forfeit: m[3] == "!"}
			e.opponent, _ = strconv.Atoi(m[1])
			if m[4] != "" {
				e.colour = strings.ToLower(m[4])[0]
			}
			if m[5] != "" {
				e.handicap, _ = strconv.Atoi(m[5])
			}
			entries = append(entries, e)
		}
		t.Players = append(t.Players, p)
		rows = append(rows, entries)
	}
	if len(t.Players) == 0 {
		return nil, fail(lineNo, "no player lines")
	}
	if err := t.gamesFromRows(rows); err != nil {
		return nil, err
	}
	t.keepPlayers()
	return t, nil
}

func (t *Imported) header(key, val string) error {
	switch key {
	case "EV":
		t.Name = val
	case "PC":
		_, city, _ := strings.Cut(val, ",")
		t.Location = strings.TrimSpace(city)
	case "DT":
		start, end, _ := strings.Cut(val, ",")
		t.Start, t.End = strings.TrimSpace(start), strings.TrimSpace(end)
	case "KM":
		k, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil {
			return fmt.Errorf("komi is not a number")
		}
		t.Komi = k
	}
	return nil
}

// gamesFromRows turns each player's round entries into games, checking that
// both sides of every game tell the same story.
func (t *Imported) gamesFromRows(rows [][]hEntry) error {
	n := len(t.Players)
	seen := map[[3]int]bool{}
	for a, entries := range rows {
		id := a + 1
		for r, e := range entries {
			round := r + 1
			fail := func(format string, args ...any) error {
				return &FormatError{"h9", e.line, fmt.Sprintf("round %d: ", round) + fmt.Sprintf(format, args...)}
			}
			if e.opponent == 0 {
				switch e.outcome {
				case '+':
					t.Byes = append(t.Byes, Bye{Round: round, Player: id, Points: WinPoints})
				case '=':
					t.Byes = append(t.Byes, Bye{Round: round, Player: id, Points: DrawPoints})
				}
				continue
			}
			if e.opponent < 1 || e.opponent > n || e.opponent == id {
				return fail("opponent %d is not another player's line (1–%d)", e.opponent, n)
			}
			other := rows[e.opponent-1]
			if round > len(other) || other[round-1].opponent != id {
				return fail("says it played line %d, whose round %d does not name line %d back", e.opponent, round, id)
			}
			o := other[round-1]
			if !consistent(e.outcome, o.outcome) {
				return fail("result %c against line %d, who reports %c", e.outcome, e.opponent, o.outcome)
			}
			k := [3]int{round, min(id, e.opponent), max(id, e.opponent)}
			if seen[k] {
				continue
			}
			seen[k] = true
			g := Game{Round: round, Black: id, White: e.opponent, Handicap: e.handicap}
			if e.colour == 'w' || (e.colour == 0 && o.colour == 'b') {
				g.Black, g.White = e.opponent, id
			}
			mine := e.outcome
			if g.Black != id {
				mine = o.outcome
			}
			switch {
			case e.outcome == '+' && o.outcome == '+':
				g.Result = BothWin
			case e.outcome == '-' && o.outcome == '-':
				g.Result = BothLose
			default:
				g.Result = resultFromBlack(mine, e.forfeit || o.forfeit)
			}
			t.Games = append(t.Games, g)
		}
	}
	sort.SliceStable(t.Games, func(i, j int) bool { return t.Games[i].Round < t.Games[j].Round })
	for _, g := range t.Games {
		t.Rounds = max(t.Rounds, g.Round)
	}
	for _, b := range t.Byes {
		t.Rounds = max(t.Rounds, b.Round)
	}
	return nil
}

func consistent(a, b byte) bool {
	switch a {
	case '+':
		return b == '-' || b == '+' // both win is allowed
	case '-':
		return b == '+' || b == '-' // both lose
	case '=':
		return b == '='
	}
	return b == '?'
}

// resultFromBlack maps black's outcome to a result.
func resultFromBlack(outcome byte, forfeit bool) Result {
	switch outcome {
	case '+':
		if forfeit {
			return BlackForfeit
		}
		return BlackWins
	case '-':
		if forfeit {
			return WhiteForfeit
		}
		return WhiteWins
	case '=':
		return Draw
	}
	return NoResult
}
