package rules

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Game is the main line of one SGF game tree, ready to replay.
type Game struct {
	Size        int
	Komi        float64
	HasKomi     bool
	Handicap    int
	Rules       string // RU as written
	Result      string // RE as written
	PlayerBlack string
	PlayerWhite string
	RankBlack   string
	RankWhite   string
	Date        string
	Event       string
	Round       string
	Steps       []Step
	// TerritoryBlack and TerritoryWhite are the last TB/TW markup of the main
	// line: the players' or server's view of the final count.
	TerritoryBlack []Coord
	TerritoryWhite []Coord
	// KomiNote explains a komi read in another unit than points.
	KomiNote string
}

// StepKind says what a step of the main line does.
type StepKind uint8

const (
	SetupStep  StepKind = iota // AB, AW, AE: Color is Empty for AE
	MoveStep                   // B or W
	PlayerStep                 // PL: Color is to move
)

// Step is one setup stone, one move, or a change of the player to move.
type Step struct {
	Kind  StepKind
	Color Color
	At    Coord
	Pass  bool
}

// GameFromTree reads the main line (the first child at every branch) of a
// game tree; its point lists expand to at most MaxRecordPoints points.
func GameFromTree(root *Node) (*Game, error) { return gameFromTree(root, &budget{}) }

// gameFromTree is GameFromTree booking points against a record's budget.
func gameFromTree(root *Node, b *budget) (*Game, error) {
	g := &Game{Size: 19}
	if v, ok := root.Get("SZ"); ok {
		w, _, _ := strings.Cut(v, ":") // SZ[19:19]: rectangular boards are not played
		n, err := strconv.Atoi(strings.TrimSpace(w))
		if err != nil || n < 2 || n > MaxSize {
			return nil, &RecordError{Code: RecordBoardSize, Property: "SZ", Value: quote(v)}
		}
		g.Size = n
	}
	if v, ok := root.Get("KM"); ok && strings.TrimSpace(v) != "" {
		k, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return nil, &RecordError{Code: RecordKomi, Property: "KM", Value: quote(v)}
		}
		g.Komi, g.HasKomi = k, true
		g.normalizeKomi(strings.TrimSpace(v), hundredthsServer(root.All("AP")))
	}
	if v, ok := root.Get("HA"); ok && strings.TrimSpace(v) != "" {
		h, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || h < 0 || h > 9*9 {
			return nil, &RecordError{Code: RecordHandicap, Property: "HA", Value: quote(v)}
		}
		g.Handicap = h
	}
	g.Rules, _ = root.Get("RU")
	g.Result, _ = root.Get("RE")
	g.PlayerBlack, _ = root.Get("PB")
	g.PlayerWhite, _ = root.Get("PW")
	g.RankBlack, _ = root.Get("BR")
	g.RankWhite, _ = root.Get("WR")
	g.Date, _ = root.Get("DT")
	g.Event, _ = root.Get("EV")
	g.Round, _ = root.Get("RO")
	for n := root; n != nil; {
		for _, p := range n.Props {
			var c Color
			switch p.ID {
			case "TB", "TW":
				pts, err := parsePointList(p.Values, g.Size, b)
				if err != nil {
					return nil, ofProperty(err, p.ID)
				}
				if p.ID == "TB" {
					g.TerritoryBlack = pts
				} else {
					g.TerritoryWhite = pts
				}
			case "AB", "AW", "AE":
				c = map[string]Color{"AB": Black, "AW": White, "AE": Empty}[p.ID]
				pts, err := parsePointList(p.Values, g.Size, b)
				if err != nil {
					return nil, ofProperty(err, p.ID)
				}
				for _, pt := range pts {
					g.Steps = append(g.Steps, Step{Kind: SetupStep, Color: c, At: pt})
				}
			case "PL":
				switch strings.ToUpper(strings.TrimSpace(first(p.Values))) {
				case "B", "1":
					g.Steps = append(g.Steps, Step{Kind: PlayerStep, Color: Black})
				case "W", "2":
					g.Steps = append(g.Steps, Step{Kind: PlayerStep, Color: White})
				}
			}
		}
		for _, p := range n.Props {
			if p.ID != "B" && p.ID != "W" {
				continue
			}
			c := Black
			if p.ID == "W" {
				c = White
			}
			pt, pass, err := ParseSGFPoint(first(p.Values), g.Size)
			if err != nil {
				return nil, ofProperty(err, p.ID)
			}
			g.Steps = append(g.Steps, Step{Kind: MoveStep, Color: c, At: pt, Pass: pass})
		}
		if len(n.Children) == 0 {
			break
		}
		n = n.Children[0]
	}
	return g, nil
}

func first(vs []string) string {
	if len(vs) == 0 {
		return ""
	}
	return vs[0]
}

// Moves counts the B and W moves of the main line.
func (g *Game) Moves() int {
	n := 0
	for _, s := range g.Steps {
		if s.Kind == MoveStep {
			n++
		}
	}
	return n
}

// hundredthsServer names the server that wrote a record when it is one
// that writes komi in hundredths (Fox, 野狐: AP[foxwq], next to the
// AP[GNU Go:3.8] it also writes), or "".
func hundredthsServer(ap []string) string {
	for _, a := range ap {
		if strings.Contains(strings.ToLower(a), "foxwq") {
			return "Fox (AP[foxwq])"
		}
	}
	return ""
}

// normalizeKomi reads komi written in other units than points.
//
//   - Hundredths: Fox writes KM[375], KM[650], KM[750] for 3.75, 6.5 and
//     7.5. A whole number is read in hundredths when the record comes from
//     such a server (server non-empty) or when it is 100 or more, which no
//     komi in points is; in either case only if it is a whole number of
//     quarters once divided (a komi is counted in quarter stones).
//   - Stones: a quarter fraction (3.75, or 375 in hundredths) cannot be
//     points: some Chinese records write komi in stones, twice as many points.
//
// Real point komi (KM[98] included, from no such server) is left alone.
func (g *Game) normalizeKomi(raw, server string) {
	quarter := func(k float64) bool {
		f := math.Abs(k - math.Trunc(k))
		return f == 0.25 || f == 0.75
	}
	whole := g.Komi == math.Trunc(g.Komi) && !strings.ContainsAny(raw, ".eE")
	inQuarters := math.Mod(math.Abs(g.Komi), 25) == 0
	if whole && g.Komi != 0 && inQuarters && (server != "" || math.Abs(g.Komi) >= 100) {
		why := "no komi in points is 100 or more"
		if server != "" {
			why = server + " writes komi in hundredths"
		}
		g.Komi /= 100
		if quarter(g.Komi) {
			g.KomiNote = fmt.Sprintf("KM[%s] is in hundredths of stones (%s): komi %g points", raw, why, 2*g.Komi)
			g.Komi *= 2
			return
		}
		g.KomiNote = fmt.Sprintf("KM[%s] is in hundredths (%s): komi %g points", raw, why, g.Komi)
		return
	}
	if quarter(g.Komi) {
		g.KomiNote = fmt.Sprintf("KM[%s] is in stones: komi %g points", raw, 2*g.Komi)
		g.Komi *= 2
	}
}
