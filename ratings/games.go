package ratings

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// Rank is a declared rank turned into GoR (1d = 2100, 100 per grade, floor
// 30k = -900; 1p = 2700 + 30 per grade). Known is false for an empty rank.
type Rank struct {
	GoR   float64
	Known bool
}

// ParseRank reads "30k".."1k", "1d".."9d", "1p".."9p" (case-insensitive).
// Ranks weaker than 30k (KGS has 35k) are floored at 30k, as the EGD does.
// The empty string is an unknown rank, not an error.
func ParseRank(s string) (Rank, error) {
	if s == "" {
		return Rank{}, nil
	}
	if len(s) < 2 {
		return Rank{}, fmt.Errorf("rank %q: want a number and k, d or p", s)
	}
	n, err := strconv.Atoi(s[:len(s)-1])
	if err != nil || n < 1 {
		return Rank{}, fmt.Errorf("rank %q: want a number and k, d or p", s)
	}
	switch s[len(s)-1] {
	case 'k', 'K':
		return Rank{GoR: max(2100-100*float64(n), -900), Known: true}, nil
	case 'd', 'D':
		if n > 9 {
			return Rank{}, fmt.Errorf("rank %q: dan grades run 1..9", s)
		}
		return Rank{GoR: 2000 + 100*float64(n), Known: true}, nil
	case 'p', 'P':
		if n > 9 {
			return Rank{}, fmt.Errorf("rank %q: professional grades run 1..9", s)
		}
		return Rank{GoR: 2670 + 30*float64(n), Known: true}, nil
	}
	return Rank{}, fmt.Errorf("rank %q: want a number and k, d or p", s)
}

// Game is one row of a games file. Players are indices into Games.Players,
// so that rating systems can keep their state in slices.
type Game struct {
	Day       int32 // days since 1970-01-01
	Event     string
	Round     string
	Black     int32
	White     int32
	BlackRank Rank
	WhiteRank Rank
	Handicap  int
	Komi      float64
	HasKomi   bool
	Winner    byte // 'B', 'W' or 'D'
}

// Score is black's result: 1 win, 0.5 draw (jigo), 0 loss.
func (g *Game) Score() float64 {
	switch g.Winner {
	case 'B':
		return 1
	case 'W':
		return 0
	}
	return 0.5
}

// Games is a parsed games file in file order.
type Games struct {
	Games   []Game
	Players []string // player id by index
}

// Header is the first line of a games file.
const Header = "date,event,round,black,white,black_rank,white_rank,handicap,komi,winner"

// ReadGames parses a games file with the columns of the shared games.csv
// (date,event,round,black,white,black_rank,white_rank,handicap,komi,winner).
// Errors name the data row (0-based, header not counted).
func ReadGames(r io.Reader) (*Games, error) {
	header := strings.Split(Header, ",")
	rs := newRecords(r, len(header))
	rec, err := rs.next()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("games file: empty, want a header line")
		}
		return nil, fmt.Errorf("games file header: %w", err)
	}
	for i, h := range header {
		if strings.TrimSpace(strings.TrimPrefix(rec[i], "\ufeff")) != h {
			return nil, fmt.Errorf("games file header: column %d is %q, want %q", i+1, rec[i], h)
		}
	}
	p := parser{ids: map[string]int32{}, strs: map[string]string{}, days: map[string]int32{}}
	gs := &Games{}
	// A million games do not fit one growing slice well: append's growth
	// copies the whole slice again and again. With a size hint the slice is
	// made once; without, rows go into fixed chunks joined once at the end.
	const chunk = 1 << 16
	var chunks [][]Game
	cur := make([]Game, 0, chunk)
	if n := sizeHint(r); n > 0 {
		cur = make([]Game, 0, n/bytesPerGame+16)
	}
	for row := 0; ; row++ {
		rec, err := rs.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("games file row %d: %w", row, err)
		}
		if len(cur) == cap(cur) {
			chunks = append(chunks, cur)
			cur = make([]Game, 0, chunk)
		}
		cur = cur[:len(cur)+1]
		if err := p.game(rec, gs, &cur[len(cur)-1]); err != nil {
			return nil, fmt.Errorf("games file row %d: %w", row, err)
		}
	}
	if len(chunks) == 0 {
		gs.Games = cur
		return gs, nil
	}
	n := len(cur)
	for _, c := range chunks {
		n += len(c)
	}
	gs.Games = make([]Game, 0, n)
	for _, c := range chunks {
		gs.Games = append(gs.Games, c...)
	}
	gs.Games = append(gs.Games, cur...)
	return gs, nil
}

// bytesPerGame is a little under the shared file's mean row (60 bytes), so
// that a size hint over-allocates rather than grows.
const bytesPerGame = 56

// sizeHint is the bytes left in r when r can tell (an in-memory reader or a
// file), else 0.
func sizeHint(r io.Reader) int {
	switch v := r.(type) {
	case interface{ Len() int }:
		return v.Len()
	case interface{ Stat() (os.FileInfo, error) }:
		if fi, err := v.Stat(); err == nil && fi.Mode().IsRegular() {
			return int(min(fi.Size(), 1<<34))
		}
	}
	return 0
}

// parser interns ids, events, rounds and dates: a million rows repeat few of them.
type parser struct {
	ids  map[string]int32
	strs map[string]string
	days map[string]int32
	// The file is sorted by date and holds runs of one event: the last
	// date, event and komi seen answer most rows without a map probe.
	lastDate, lastEvent, lastKomi string
	lastDay                       int32
	lastKomiV                     float64
}

func (p *parser) intern(s string) string {
	if s == "" {
		return ""
	}
	if s == p.lastEvent {
		return p.lastEvent
	}
	if v, ok := p.strs[s]; ok {
		return v
	}
	s = strings.Clone(s) // the record's backing array is reused
	p.strs[s] = s
	p.lastEvent = s
	return s
}

func (p *parser) player(id string, gs *Games) (int32, error) {
	if id == "" {
		return 0, errors.New("empty player id")
	}
	if i, ok := p.ids[id]; ok {
		return i, nil
	}
	id = strings.Clone(id)
	i := int32(len(gs.Players))
	p.ids[id] = i
	gs.Players = append(gs.Players, id)
	return i, nil
}

func (p *parser) day(s string) (int32, error) {
	if s == p.lastDate && s != "" {
		return p.lastDay, nil
	}
	d, ok := p.days[s]
	if !ok {
		t, err := time.Parse(time.DateOnly, s)
		if err != nil {
			return 0, fmt.Errorf("date %q: want YYYY-MM-DD", s)
		}
		d = int32(t.Unix() / 86400)
		s = strings.Clone(s)
		p.days[s] = d
	} else {
		s = strings.Clone(s)
	}
	p.lastDate, p.lastDay = s, d
	return d, nil
}

// komi parses a komi, remembering the last one (most rows repeat it).
func (p *parser) komi(s string) (float64, error) {
	if s == p.lastKomi && s != "" {
		return p.lastKomiV, nil
	}
	k, err := strconv.ParseFloat(s, 64)
	if err != nil || k != k || k < -1000 || k > 1000 {
		return 0, fmt.Errorf("komi %q: want a number of points", s)
	}
	p.lastKomi, p.lastKomiV = strings.Clone(s), k
	return k, nil
}

func (p *parser) game(rec []string, gs *Games, g *Game) error {
	var err error
	if g.Day, err = p.day(rec[0]); err != nil {
		return err
	}
	g.Event = p.intern(rec[1])
	g.Round = p.intern(rec[2])
	if g.Black, err = p.player(rec[3], gs); err != nil {
		return fmt.Errorf("black: %w", err)
	}
	if g.White, err = p.player(rec[4], gs); err != nil {
		return fmt.Errorf("white: %w", err)
	}
	if g.Black == g.White {
		return fmt.Errorf("player %q plays himself", rec[3])
	}
	if g.BlackRank, err = ParseRank(rec[5]); err != nil {
		return fmt.Errorf("black_rank: %w", err)
	}
	if g.WhiteRank, err = ParseRank(rec[6]); err != nil {
		return fmt.Errorf("white_rank: %w", err)
	}
	if g.Handicap, err = strconv.Atoi(rec[7]); err != nil || g.Handicap < 0 || g.Handicap > 30 {
		return fmt.Errorf("handicap %q: want 0..30 stones", rec[7])
	}
	if rec[8] != "" {
		if g.Komi, err = p.komi(rec[8]); err != nil {
			return err
		}
		g.HasKomi = true
	}
	switch rec[9] {
	case "B", "W", "D":
		g.Winner = rec[9][0]
	default:
		return fmt.Errorf("winner %q: want B, W or D", rec[9])
	}
	return nil
}
