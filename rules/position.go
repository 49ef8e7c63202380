package rules

// Position is a game's board after some of its moves, for drawing: the
// stones, the point of each illegal move played so far, and at the end of
// the record its dead stones and who owns each counted point.
type Position struct {
	Size  int
	Board [][]Color // [y][x]
	// Moves is how many moves are played, of Total in the record.
	Moves, Total int
	// Last is the last move played, when it placed a stone.
	Last    *Coord
	Illegal []IllegalPoint
	// Final: the whole record is replayed; Dead and Owner are set only then.
	Final bool
	Dead  []Coord
	// Owner is who counts each point of the final position: the colour of
	// a live stone, or of the only side an empty region (dead stones taken
	// off) touches; Empty for neutral points.
	Owner [][]Color
}

// IllegalPoint is an illegal move on the board: its number, point and reason.
type IllegalPoint struct {
	Move   int
	At     Coord
	Reason string
}

// Replay plays g's main line as Adjudicate does, up to move upto (all
// when upto < 0 or beyond the record), and returns the position; an
// illegal move is void and counts as a pass. At the end of the record the
// dead stones of opt (or of the record's markup with DeadFromMarkup) are
// marked and every point given its owner.
func Replay(g *Game, opt Options, upto int) (Position, error) {
	m, err := newMainLine(g, opt)
	if err != nil {
		return Position{}, err
	}
	b, rules := m.b, m.rules
	pos := Position{Size: g.Size, Total: g.Moves()}
	if upto < 0 || upto > pos.Total {
		upto = pos.Total
	}
	moves := 0
	for _, s := range g.Steps {
		if m.ended() || (s.Kind == MoveStep && moves >= upto) {
			break
		}
		out := m.step(s)
		if !out.move {
			continue
		}
		moves++
		pos.Last = nil
		switch {
		case out.double && !s.Pass:
			pos.Illegal = append(pos.Illegal, IllegalPoint{Move: moves, At: s.At, Reason: doubleMove})
		case out.pass, out.double:
		case out.violation == NoViolation:
			at := s.At
			pos.Last = &at
		case out.violation != OffBoard:
			pos.Illegal = append(pos.Illegal, IllegalPoint{Move: moves, At: s.At, Reason: out.violation.String()})
		}
	}
	pos.Moves = moves
	pos.Final = moves >= pos.Total || m.ended()
	pos.Board = make([][]Color, g.Size)
	for y := range pos.Board {
		pos.Board[y] = make([]Color, g.Size)
		for x := range pos.Board[y] {
			pos.Board[y][x] = b.Color(b.At(x, y))
		}
	}
	if !pos.Final {
		return pos, nil
	}
	dead, _, err := deadPoints(b, opt.Dead)
	if err != nil {
		return Position{}, err
	}
	if len(opt.Dead) == 0 && opt.DeadFromMarkup {
		dead = markupDead(b, g)
	}
	if rules == TrompTaylor {
		dead = nil
	}
	if len(dead) == 0 && settles(g, opt, rules, m.ended()) {
		dead = ruleDead(b) // as Adjudicate settles the count
	}
	pos.Dead, pos.Owner = b.owners(dead)
	return pos, nil
}

// owners takes the dead chains off a copy of the position and says who
// owns every point, as CountArea counts them; it returns the dead stones.
func (b *Board) owners(dead []Point) ([]Coord, [][]Color) {
	color := make([]Color, len(b.color))
	copy(color, b.color)
	var out []Coord
	for _, p := range dead {
		if c := color[p]; c == Black || c == White {
			for _, s := range b.Chain(p) {
				if color[s] == c {
					color[s] = Empty
					x, y := b.XY(s)
					out = append(out, Coord{x, y})
				}
			}
		}
	}
	owner := make([][]Color, b.size)
	for y := range owner {
		owner[y] = make([]Color, b.size)
	}
	seen := make([]bool, len(color))
	var stack, region []Point
	b.Points(func(p Point) {
		x, y := b.XY(p)
		if c := color[p]; c == Black || c == White {
			owner[y][x] = c
			return
		}
		if seen[p] {
			return
		}
		touches := [3]bool{}
		stack, region = append(stack[:0], p), region[:0]
		seen[p] = true
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			region = append(region, q)
			for _, n := range b.neighbours(q) {
				switch color[n] {
				case Empty:
					if !seen[n] {
						seen[n] = true
						stack = append(stack, n)
					}
				case Black, White:
					touches[color[n]] = true
				}
			}
		}
		who := Empty
		switch {
		case touches[Black] && !touches[White]:
			who = Black
		case touches[White] && !touches[Black]:
			who = White
		}
		for _, q := range region {
			qx, qy := b.XY(q)
			owner[qy][qx] = who
		}
	})
	return out, owner
}
