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
		g.normalizeKomi(v)
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

// normalizeKomi reads komi written in stones, as some Chinese records do:
// a quarter-stone fraction (KM[3.75]) cannot be points, and KM[375] is the
// same in hundredths. Real point komi (KM[98] included) is left alone.
func (g *Game) normalizeKomi(raw string) {
	quarter := func(k float64) bool {
		f := math.Abs(k - math.Trunc(k))
		return f == 0.25 || f == 0.75
	}
	switch {
	case quarter(g.Komi):
		g.KomiNote = fmt.Sprintf("KM[%s] is in stones: komi %g points", raw, 2*g.Komi)
		g.Komi *= 2
	case math.Abs(g.Komi) >= 100 && quarter(g.Komi/100):
		g.KomiNote = fmt.Sprintf("KM[%s] is in hundredths of stones: komi %g points", raw, g.Komi/50)
		g.Komi /= 50
	}
}
