// Package rules is dankyu's embedded weiqi rules engine: a board with
// captures, suicide and whole-board repetition rules, an SGF reader and
// writer, and adjudication and counting of game records under the Chinese
// rules (area counting), the AGA variant, Ing, Tromp–Taylor and territory
// counting. It reads no database and keeps no global state.
package rules

import "strconv"

// Color is the content of a point.
type Color uint8

const (
	Empty Color = iota
	Black
	White
	edge // the frame around the board
)

// Opponent returns the other player.
func (c Color) Opponent() Color { return 3 - c }

func (c Color) String() string {
	switch c {
	case Black:
		return "B"
	case White:
		return "W"
	case Empty:
		return "."
	}
	return "#"
}

// KoRule says which repeated positions are forbidden.
type KoRule uint8

const (
	// PositionalSuperko forbids a move that recreates any earlier board
	// colouring, whoever is to move (the default, as computer-go servers apply
	// the Chinese rules).
	PositionalSuperko KoRule = iota
	// SituationalSuperko forbids recreating an earlier position with the same
	// player to move ("the opponent must never again face a position that has
	// occurred").
	SituationalSuperko
	// SimpleKo forbids only the immediate recapture of a single-stone ko.
	SimpleKo
)

// Violation says why a move is illegal; NoViolation when it is legal.
type Violation uint8

const (
	NoViolation Violation = iota
	Occupied
	Suicide
	Ko      // immediate recapture of a single-stone ko
	Superko // any other whole-board repetition
	OffBoard
)

func (v Violation) String() string {
	return [...]string{"", "occupied", "suicide", "ko", "superko", "off-board"}[v]
}

// MaxSize is the largest board (SGF letters a–y and beyond reach 52; the
// engine stops at 25).
const MaxSize = 25

// Point is an index into the board's framed array; Pass is no point.
type Point int16

// Pass is the move that places no stone.
const Pass Point = -1

// Board is a position plus what the repetition rules need of its past.
// Play and Check allocate nothing once the board is made.
type Board struct {
	size, stride int
	color        []Color
	head         []Point  // chain head of each stone
	next         []Point  // circular list through a chain's stones
	libs         []int16  // pseudo-liberties, at the head (an empty point adjacent twice counts twice)
	count        []int16  // stones in the chain, at the head
	chainKey     []uint64 // XOR of the chain's stones' Zobrist keys, at the head
	blank        []Color  // the empty board with its frame, for Reset
	zob          *zobrist
	hash         uint64
	koPoint      Point // the point the player koColor may not retake at once
	koColor      Color
	captured     [3]int // stones captured by each colour
	history      hashSet
	dirty        bool // setup changed stones: chains need rebuilding
	KoRule       KoRule
	AllowSuicide bool
}

// NewBoard returns an empty size×size board with positional superko and no suicide.
func NewBoard(size int) (*Board, error) {
	if size < 2 || size > MaxSize {
		return nil, &RecordError{Code: RecordBoardSize, Property: "SZ", Value: strconv.Itoa(size)}
	}
	stride := size + 2
	n := stride * stride
	b := &Board{
		size: size, stride: stride,
		color: make([]Color, n), head: make([]Point, n), next: make([]Point, n),
		libs: make([]int16, n), count: make([]int16, n), chainKey: make([]uint64, n),
		blank:   make([]Color, n),
		zob:     newZobrist(n),
		koPoint: Pass,
	}
	for i := range b.blank {
		b.blank[i] = edge
	}
	for y := range size {
		for x := range size {
			b.blank[b.At(x, y)] = Empty
		}
	}
	b.history.init(512)
	b.Reset()
	return b, nil
}

// Reset empties the board and forgets its history, keeping its settings.
func (b *Board) Reset() {
	copy(b.color, b.blank)
	clear(b.head) // the head of every point that holds no stone is 0, a frame point
	b.hash, b.dirty = 0, false
	b.koPoint, b.koColor = Pass, Empty
	b.captured = [3]int{}
	b.history.clear()
	b.history.add(b.key(Black))
}

// Size is the number of lines.
func (b *Board) Size() int { return b.size }

// At is the point at column x, row y, both from 0 at the top left (as SGF).
func (b *Board) At(x, y int) Point { return Point((y+1)*b.stride + x + 1) }

// XY is the inverse of At.
func (b *Board) XY(p Point) (x, y int) { return int(p)%b.stride - 1, int(p)/b.stride - 1 }

// OnBoard reports whether x, y is on the board.
func (b *Board) OnBoard(x, y int) bool { return x >= 0 && y >= 0 && x < b.size && y < b.size }

// Color returns the content of p.
func (b *Board) Color(p Point) Color { return b.color[p] }

// Hash is the Zobrist hash of the stones on the board.
func (b *Board) Hash() uint64 { return b.hash }

// Captured returns how many stones c has captured.
func (b *Board) Captured(c Color) int { return b.captured[c] }

// Points calls f for every point of the board, row by row.
func (b *Board) Points(f func(p Point)) {
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			f(b.At(x, y))
		}
	}
}

func (b *Board) neighbours(p Point) [4]Point {
	s := Point(b.stride)
	return [4]Point{p - s, p - 1, p + 1, p + s}
}

// key is the repetition key of the current stones with toMove to play.
func (b *Board) key(toMove Color) uint64 {
	if b.KoRule == SituationalSuperko && toMove == White {
		return b.hash ^ b.zob.whiteToMove
	}
	return b.hash
}

// Check reports whether c may play at p, without changing anything.
func (b *Board) Check(c Color, p Point) Violation { return b.move(c, p, false) }

// Play puts a stone of colour c at p, or passes when p is Pass. An illegal
// move changes nothing and returns its violation.
func (b *Board) Play(c Color, p Point) Violation {
	if p == Pass {
		b.koPoint, b.koColor = Pass, Empty
		b.history.add(b.key(c.Opponent()))
		return NoViolation
	}
	return b.move(c, p, true)
}

// move judges c at p and, when legal and commit is set, plays it. Both share
// one reading of the neighbours: p's adjacencies are taken from the
// neighbouring chains' pseudo-liberties first (a chain left with none is
// captured, or is the mover's own chain with no other liberty) and given
// back if the move is illegal or only checked.
func (b *Board) move(c Color, p Point, commit bool) Violation {
	if b.dirty {
		b.settle()
	}
	if p < 0 || int(p) >= len(b.color) {
		return OffBoard
	}
	switch b.color[p] {
	case Empty:
	case edge:
		return OffBoard
	default:
		return Occupied
	}
	s := Point(b.stride)
	ns := [4]Point{p - s, p - 1, p + 1, p + s}
	// Empty points and the frame have head 0 (a frame point), so every
	// neighbour's head can be read and its liberties taken without asking
	// its colour; point 0 is never a stone, and its count, set high here,
	// means nothing but "not captured, not the mover's".
	b.libs[0] = 1 << 14
	var hds [4]Point
	empties := int16(0)
	for i, n := range ns {
		if b.color[n] == Empty {
			empties++
		}
		hd := b.head[n]
		b.libs[hd]--
		hds[i] = hd
	}
	opp := c.Opponent()
	h := b.hash ^ b.zob.stone[c][p]
	captures, lastCaptured, alive := 0, Pass, empties > 0
	for i, hd := range hds {
		if b.libs[hd] > 0 {
			alive = alive || b.color[hd] == c
			continue
		}
		if b.color[hd] == c || (i > 0 && hd == hds[0]) || (i > 1 && hd == hds[1]) || (i > 2 && hd == hds[2]) {
			continue
		}
		h ^= b.chainKey[hd] // captured: every liberty it had was p
		captures += int(b.count[hd])
		lastCaptured = ns[i]
	}
	suicide := captures == 0 && !alive
	if suicide {
		if !b.AllowSuicide {
			b.giveBack(&hds)
			return Suicide
		}
		// Suicide where allowed: the stone and its friends leave the board.
		h ^= b.zob.stone[c][p]
		for i, hd := range hds {
			if hd != 0 && b.color[hd] == c && (i == 0 || hd != hds[0]) && (i <= 1 || hd != hds[1]) && (i <= 2 || hd != hds[2]) {
				h ^= b.chainKey[hd]
			}
		}
	}
	if p == b.koPoint && c == b.koColor {
		b.giveBack(&hds)
		return Ko
	}
	k := h
	if b.KoRule == SituationalSuperko && opp == White {
		k ^= b.zob.whiteToMove
	}
	switch {
	case b.KoRule == SimpleKo:
		if commit {
			b.history.add(k)
		}
	case commit:
		if !b.history.addNew(k) {
			b.giveBack(&hds)
			return Superko
		}
	case b.history.has(k):
		b.giveBack(&hds)
		return Superko
	}
	if !commit {
		b.giveBack(&hds)
		return NoViolation
	}

	b.color[p], b.head[p], b.next[p], b.count[p], b.libs[p] = c, p, p, 1, empties
	b.chainKey[p] = b.zob.stone[c][p]
	// Merges and captures in one pass: a capture adds liberties to the
	// chains around it as they are at that moment, and a merge sums them,
	// so the order does not matter. A chain captured through one neighbour
	// is empty when met through another.
	for _, n := range ns {
		switch b.color[n] {
		case c:
			if hp, hn := b.head[p], b.head[n]; hn != hp {
				b.merge(hp, hn)
			}
		case opp:
			if hd := b.head[n]; b.libs[hd] == 0 {
				b.remove(hd)
			}
		}
	}
	b.captured[c] += captures
	if suicide { // allowed suicide
		b.captured[opp] += b.remove(b.head[p])
	}
	b.koPoint, b.koColor = Pass, Empty
	if captures == 1 && b.count[b.head[p]] == 1 && b.libs[b.head[p]] == 1 {
		b.koPoint, b.koColor = lastCaptured, opp
	}
	b.hash = h
	return NoViolation
}

// giveBack undoes move's taking of p's adjacencies from its neighbours' chains.
func (b *Board) giveBack(hds *[4]Point) {
	for _, hd := range hds {
		b.libs[hd]++
	}
}

// merge joins chain b into chain a (the larger keeps its head).
func (bd *Board) merge(a, b Point) {
	if bd.count[a] < bd.count[b] {
		a, b = b, a
	}
	for s := b; ; {
		bd.head[s] = a
		if s = bd.next[s]; s == b {
			break
		}
	}
	bd.next[a], bd.next[b] = bd.next[b], bd.next[a]
	bd.count[a] += bd.count[b]
	bd.libs[a] += bd.libs[b]
	bd.chainKey[a] ^= bd.chainKey[b]
}

// remove takes a chain off the board, giving its neighbours their liberties back.
func (b *Board) remove(hd Point) int {
	n := 0
	for s := hd; ; {
		b.color[s], b.head[s] = Empty, 0
		n++
		s = b.next[s]
		if s == hd {
			break
		}
	}
	for s := hd; ; {
		for _, m := range b.neighbours(s) {
			if col := b.color[m]; col == Black || col == White {
				b.libs[b.head[m]]++
			}
		}
		s = b.next[s]
		if s == hd {
			break
		}
	}
	return n
}

// Setup places or removes a stone outside play (SGF AB, AW, AE): no
// captures, no ko. Chains are rebuilt once, before the next move, so a large
// setup costs one pass over the board. Callers record the new position with
// Remember.
func (b *Board) Setup(c Color, p Point) {
	if b.color[p] == edge || b.color[p] == c {
		return
	}
	if old := b.color[p]; old != Empty {
		b.hash ^= b.zob.stone[old][p]
	}
	if c != Empty {
		b.hash ^= b.zob.stone[c][p]
	}
	b.color[p] = c
	b.koPoint, b.koColor = Pass, Empty
	b.dirty = true
}

// settle rebuilds the chains after setup.
func (b *Board) settle() {
	if !b.dirty {
		return
	}
	b.dirty = false
	for p, c := range b.color {
		if c == Black || c == White {
			b.head[p], b.next[p], b.count[p], b.libs[p] = Point(p), Point(p), 1, 0
			b.chainKey[p] = b.zob.stone[c][p]
		} else {
			b.head[p] = 0
		}
	}
	b.Points(func(p Point) {
		c := b.color[p]
		if c != Black && c != White {
			return
		}
		for _, n := range b.neighbours(p) {
			if b.color[n] == c && b.head[n] != b.head[p] {
				b.merge(b.head[p], b.head[n])
			}
		}
	})
	b.Points(func(p Point) {
		if c := b.color[p]; c == Black || c == White {
			for _, n := range b.neighbours(p) {
				if b.color[n] == Empty {
					b.libs[b.head[p]]++
				}
			}
		}
	})
}

// Remember records the current position for the repetition rules, with
// toMove the player to move next.
func (b *Board) Remember(toMove Color) { b.history.add(b.key(toMove)) }

// Liberties counts the distinct empty points next to the chain at p (slow: for tests and counting).
func (b *Board) Liberties(p Point) int {
	b.settle()
	if c := b.color[p]; c != Black && c != White {
		return 0
	}
	seen := map[Point]bool{}
	for s := b.head[p]; ; {
		for _, m := range b.neighbours(s) {
			if b.color[m] == Empty {
				seen[m] = true
			}
		}
		if s = b.next[s]; s == b.head[p] {
			break
		}
	}
	return len(seen)
}

// Chain returns the stones of the chain at p.
func (b *Board) Chain(p Point) []Point {
	b.settle()
	if c := b.color[p]; c != Black && c != White {
		return nil
	}
	var out []Point
	for s := b.head[p]; ; {
		out = append(out, s)
		if s = b.next[s]; s == b.head[p] {
			break
		}
	}
	return out
}

// String draws the board, black X, white O, row 1 at the bottom.
func (b *Board) String() string {
	var buf []byte
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			buf = append(buf, ".XO#"[b.color[b.At(x, y)]], ' ')
		}
		buf[len(buf)-1] = '\n'
	}
	return string(buf)
}
