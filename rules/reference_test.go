package rules

import (
	"math/rand/v2"
	"testing"
)

// naive is a slow, obviously correct board: flood fills for liberties and a
// set of whole-board strings for repetition. It checks Board move by move.
type naive struct {
	size    int
	grid    []Color
	seen    map[string]bool
	rule    KoRule
	suicide bool
	koAt    int // simple ko: the point the next player may not retake, or -1
}

func newNaive(size int, rule KoRule, suicide bool) *naive {
	n := &naive{size: size, grid: make([]Color, size*size), seen: map[string]bool{}, rule: rule, suicide: suicide, koAt: -1}
	n.seen[n.key(Black)] = true
	return n
}

func (n *naive) key(toMove Color) string {
	b := make([]byte, 0, len(n.grid)+1)
	for _, c := range n.grid {
		b = append(b, byte('0'+c))
	}
	if n.rule == SituationalSuperko {
		b = append(b, byte('0'+toMove))
	}
	return string(b)
}

func (n *naive) neighbours(i int) []int {
	x, y := i%n.size, i/n.size
	var out []int
	if x > 0 {
		out = append(out, i-1)
	}
	if x < n.size-1 {
		out = append(out, i+1)
	}
	if y > 0 {
		out = append(out, i-n.size)
	}
	if y < n.size-1 {
		out = append(out, i+n.size)
	}
	return out
}

// group returns the chain at i and whether it has a liberty.
func (n *naive) group(g []Color, i int) ([]int, bool) {
	c := g[i]
	seen := map[int]bool{i: true}
	stack, chain, libs := []int{i}, []int{}, false
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		chain = append(chain, p)
		for _, q := range n.neighbours(p) {
			switch {
			case g[q] == Empty:
				libs = true
			case g[q] == c && !seen[q]:
				seen[q] = true
				stack = append(stack, q)
			}
		}
	}
	return chain, libs
}

func (n *naive) play(c Color, i int) Violation {
	if i < 0 {
		n.koAt = -1
		n.seen[n.key(c.Opponent())] = true
		return NoViolation
	}
	if n.grid[i] != Empty {
		return Occupied
	}
	g := append([]Color(nil), n.grid...)
	g[i] = c
	captured := []int{}
	for _, q := range n.neighbours(i) {
		if g[q] == c.Opponent() {
			if chain, libs := n.group(g, q); !libs {
				for _, s := range chain {
					g[s] = Empty
				}
				captured = append(captured, chain...)
			}
		}
	}
	own, libs := n.group(g, i)
	if !libs {
		if !n.suicide {
			return Suicide
		}
		for _, s := range own {
			g[s] = Empty
		}
	}
	if n.koAt == i {
		return Ko
	}
	old := n.grid
	n.grid = g
	k := n.key(c.Opponent())
	if n.rule != SimpleKo && n.seen[k] {
		n.grid = old
		return Superko
	}
	n.seen[k] = true
	n.koAt = -1
	if len(captured) == 1 && len(own) == 1 {
		if _, l := n.group(g, i); l && countLibs(n, g, i) == 1 {
			n.koAt = captured[0]
		}
	}
	return NoViolation
}

func countLibs(n *naive, g []Color, i int) int {
	k := 0
	for _, q := range n.neighbours(i) {
		if g[q] == Empty {
			k++
		}
	}
	return k
}

// TestBoardAgreesWithNaiveBoard plays random games on many sizes under every
// repetition rule, with and without suicide, and compares every verdict and
// every position with the naive board.
func TestBoardAgreesWithNaiveBoard(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	moves := 0
	for _, size := range []int{2, 3, 4, 5, 7, 9, 13, 19} {
		for _, rule := range []KoRule{PositionalSuperko, SituationalSuperko, SimpleKo} {
			for _, suicide := range []bool{false, true} {
				for game := 0; game < 6; game++ {
					b, _ := NewBoard(size)
					b.KoRule, b.AllowSuicide = rule, suicide
					n := newNaive(size, rule, suicide)
					c := Black
					for m := 0; m < 3*size*size; m++ {
						i := rng.IntN(size*size+1) - 1   // -1 is a pass
						if i >= 0 && rng.IntN(20) == 0 { // now and then a setup stone (AB, AW, AE)
							sc := Color(rng.IntN(3))
							b.Setup(sc, b.At(i%size, i/size))
							n.grid[i], n.koAt = sc, -1
							continue
						}
						p := Pass
						if i >= 0 {
							p = b.At(i%size, i/size)
						}
						want := n.play(c, i)
						checked, before := b.Check(c, p), b.String()
						if b.String() != before {
							t.Fatalf("size %d move %d: Check changed the board", size, m)
						}
						got := b.Play(c, p)
						moves++
						if p != Pass && checked != got { // Check of a pass says off-board
							t.Fatalf("size %d rule %d suicide %v move %d: %s at %d: Check says %q, Play %q\n%s", size, rule, suicide, m, c, i, checked, got, b)
						}
						if h := recomputedHash(b); b.Hash() != h {
							t.Fatalf("size %d move %d: hash %x, stones hash to %x", size, m, b.Hash(), h)
						}
						if got != want {
							t.Fatalf("size %d rule %d suicide %v move %d: %s at %d: board says %q, naive %q\n%s",
								size, rule, suicide, m, c, i, got, want, b)
						}
						for j, col := range n.grid {
							if b.Color(b.At(j%size, j/size)) != col {
								t.Fatalf("size %d move %d: positions differ at %d\n%s", size, m, j, b)
							}
						}
						if got == NoViolation {
							c = c.Opponent()
						}
					}
				}
			}
		}
	}
	t.Logf("%d moves compared", moves)
}

// FuzzBoardAgreesWithNaiveBoard plays a random game chosen by the fuzzer
// (size, rule, suicide, seed) on Board and on the naive board: the same
// verdicts and positions at every move.
func FuzzBoardAgreesWithNaiveBoard(f *testing.F) {
	f.Add(uint8(5), uint8(0), false, uint64(1))
	f.Add(uint8(9), uint8(1), true, uint64(7))
	f.Add(uint8(3), uint8(2), false, uint64(42))
	f.Fuzz(func(t *testing.T, sz, rl uint8, suicide bool, seed uint64) {
		size := 2 + int(sz)%12
		rule := KoRule(rl % 3)
		rng := rand.New(rand.NewPCG(seed, uint64(size)))
		b, _ := NewBoard(size)
		b.KoRule, b.AllowSuicide = rule, suicide
		n := newNaive(size, rule, suicide)
		c := Black
		for m := 0; m < 4*size*size; m++ {
			i := rng.IntN(size*size+1) - 1
			if i >= 0 && rng.IntN(25) == 0 {
				sc := Color(rng.IntN(3))
				b.Setup(sc, b.At(i%size, i/size))
				if n.grid[i] != sc { // a setup that changes nothing leaves the ko as it was
					n.grid[i], n.koAt = sc, -1
				}
				continue
			}
			p := Pass
			if i >= 0 {
				p = b.At(i%size, i/size)
			}
			want := n.play(c, i)
			checked := b.Check(c, p)
			got := b.Play(c, p)
			if p != Pass && checked != got { // Check of a pass says off-board
				t.Fatalf("move %d: %s at %d: Check says %q, Play %q\n%s", m, c, i, checked, got, b)
			}
			if h := recomputedHash(b); b.Hash() != h {
				t.Fatalf("move %d: hash %x, stones hash to %x", m, b.Hash(), h)
			}
			if got != want {
				t.Fatalf("move %d: %s at %d: board says %q, naive %q\n%s", m, c, i, got, want, b)
			}
			for j, col := range n.grid {
				if b.Color(b.At(j%size, j/size)) != col {
					t.Fatalf("move %d: positions differ at %d\n%s", m, j, b)
				}
			}
			if got == NoViolation { // the naive board's ko binds the next player, whoever it is
				c = c.Opponent()
			}
		}
	})
}

// recomputedHash is the Zobrist hash of b's stones from scratch.
func recomputedHash(b *Board) uint64 {
	h := uint64(0)
	b.Points(func(p Point) {
		if c := b.Color(p); c == Black || c == White {
			h ^= b.zob.stone[c][p]
		}
	})
	return h
}
